/**
 * Slugs (decisions.md "Topics and feeds"): lower-case ASCII `[a-z0-9-]`, accents folded, other characters to
 * `-`, runs collapsed, trimmed, at most 100. Spaces, courses, lessons and feeds follow the same rule.
 */
export const SLUG_MAX_LENGTH = 100;
export const SLUG_PATTERN = /^(?=.*[a-z0-9])[a-z0-9-]+$/;

export const isValidSlug = (slug: string): boolean =>
  slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug);

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
}
