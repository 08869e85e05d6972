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

/** The base of a generated topic slug: the title's slug, or `topic` for a title without a letter or digit. */
export const generatedSlugBase = (title: string): string => slugify(title) || 'topic';

/**
 * The `n`-th candidate for a generated slug: the base itself, then `base-2`, `base-3`… The base is shortened (and
 * stripped of a trailing `-`) so that the suffixed slug still fits in 100 characters.
 */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  const head = base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, '');
  return `${head || 'topic'}${suffix}`;
}
