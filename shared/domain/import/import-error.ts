import type * as v from 'valibot';

/**
 * Why an import was refused, naming the item (`spaces[0] "general": members[1].user: …`) so the operator can
 * find it in the file. Nothing has been written when this is thrown (or everything written was undone).
 */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** `section[index] "ref"`: how messages name an item of the file. */
export function itemName(section: string, index: number, ref?: string | null): string {
  return `${section}[${index}]${ref ? ` "${ref}"` : ''}`;
}

/** Names the item a schema issue belongs to, from the issue path and the raw file. */
export function describeIssue(raw: unknown, issue: v.BaseIssue<unknown>): string {
  const path = issue.path ?? [];
  const keys = path.map((step) => step.key as string | number);
  let label = '';
  let rest = keys;
  if (typeof keys[0] === 'string' && typeof keys[1] === 'number') {
    const section = keys[0];
    const index = keys[1];
    const item = (raw as Record<string, unknown[]>)[section]?.[index] as Record<string, unknown> | undefined;
    const ref = typeof item?.ref === 'string' ? item.ref : undefined;
    label = itemName(section, index, ref);
    rest = keys.slice(2);
  } else if (keys.length > 0) {
    label = String(keys[0]);
    rest = keys.slice(1);
  }
  const field = rest
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${key}`))
    .join('');
  const where = [label || 'file', field].filter(Boolean).join(': ');
  return `${where}: ${issue.message}`;
}

/**
 * The import stopped for a reason other than its content: the table became unreachable mid-way, or a recovery
 * took the import over. `rolledBack` says whether what it had committed is already undone; if not, the journal
 * stays and the next recovery (the next `import`, `npm start`, `import:recover`) rolls it back.
 */
export class ImportInterrupted extends Error {
  readonly importId: string;
  readonly rolledBack: boolean;

  constructor(importId: string, rolledBack: boolean, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      rolledBack
        ? `Import ${importId} failed and was rolled back, nothing imported: ${reason}`
        : `Import ${importId} was interrupted: ${reason}. What it wrote stays visible until it is rolled back: run \`npm run admin -- import:recover\` (the next import and \`npm start\` also do it).`,
      { cause },
    );
    this.name = 'ImportInterrupted';
    this.importId = importId;
    this.rolledBack = rolledBack;
  }
}
