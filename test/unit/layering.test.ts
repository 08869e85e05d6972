import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of README.md ("Layout and import rules"), one rule per row, checked on the source text of every
 * file. A rule names the files it governs and judges each import (a repository path for relative imports, the
 * package name otherwise); a message means the import breaks the rule.
 */
const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/**
 * What a file imports: repository paths for relative specifiers, package names otherwise. Three forms count:
 * `import … from` / `export … from`, a dynamic `import('…')`, and a bare side-effect `import '…'` (which runs a
 * module as surely as a named import).
 */
function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const specifiers = [
    ...text.matchAll(
      /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm,
    ),
  ].map((match) => (match[1] ?? match[2] ?? match[3]) as string);
  return specifiers.map((specifier) =>
    specifier.startsWith('.') ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)) : specifier,
  );
}

const isPackage = (target: string) =>
  !target.includes('/') ||
  target.startsWith('@') ||
  (/^[a-z-]+\//.test(target) && !/^(shared|functions|infra|test)\//.test(target));
const under = (target: string, ...folders: string[]) =>
  folders.some((folder) => target.startsWith(`${folder}/`));
const domainOf = (path: string) => /^shared\/domain\/([^/]+)\//.exec(path)?.[1];

interface Rule {
  readonly name: string;
  readonly files: (file: string) => boolean;
  /** A reason when `target` may not be imported by `file`. */
  readonly judge: (target: string, file: string) => string | undefined;
}

const onlyProject = (allowed: string[], packages: RegExp) => (target: string) => {
  if (isPackage(target)) return packages.test(target) ? undefined : `package ${target}`;
  return under(target, ...allowed) ? undefined : `${target} is outside ${allowed.join(', ')}`;
};

const RULES: Rule[] = [
  {
    name: 'domain code knows nothing of Lambda, middy, HTTP, contracts or infrastructure',
    files: (file) => under(file, 'shared/domain'),
    judge: (target) =>
      target.startsWith('@middy/') ||
      target === 'aws-lambda' ||
      under(target, 'shared/http', 'shared/contracts', 'infra', 'functions')
        ? 'forbidden layer'
        : undefined,
  },
  {
    name: 'a domain reaches another domain only through its public module (index.ts)',
    files: (file) => domainOf(file) !== undefined,
    judge: (target, file) => {
      const other = domainOf(target);
      if (other === undefined || other === domainOf(file)) return undefined;
      return target === `shared/domain/${other}/index.ts` ? undefined : `use shared/domain/${other}/index.ts`;
    },
  },
  {
    name: 'contracts build on valibot, vocabularies and the catalogue only (never domain code)',
    files: (file) => under(file, 'shared/contracts'),
    judge: onlyProject(['shared/contracts', 'shared/vocabulary', 'shared/catalogue'], /^valibot$/),
  },
  {
    name: 'the db layer imports only the AWS SDK, valibot, config and errors',
    files: (file) => under(file, 'shared/db'),
    judge: onlyProject(['shared/db', 'shared/config', 'shared/errors'], /^(@aws-sdk\/|valibot$|node:)/),
  },
  {
    name: 'the HTTP layer never builds storage keys or reads the table (but for the replay store), and sees the domain only through auth',
    files: (file) => under(file, 'shared/http'),
    judge: (target) => {
      // The Idempotency-Key replay store is the factory's own, behind one module (no keys or reads here).
      if (target === 'shared/db/idempotency-store.ts') return undefined;
      if (under(target, 'shared/db', 'shared/integrations')) return 'storage belongs to repositories';
      if (domainOf(target) !== undefined && target !== 'shared/domain/auth/index.ts')
        return 'domain internals';
      return undefined;
    },
  },
  {
    name: 'vocabularies and errors are leaves: they import nothing of the project',
    files: (file) => under(file, 'shared/vocabulary', 'shared/errors'),
    judge: (target, file) =>
      isPackage(target) || dirname(target) === dirname(file) ? undefined : 'not a leaf',
  },
  {
    name: 'the catalogue is plain data: it imports only itself',
    files: (file) => under(file, 'shared/catalogue'),
    judge: onlyProject(['shared/catalogue'], /^$/),
  },
  {
    name: 'queue message contracts import valibot, the catalogue and vocabularies only',
    files: (file) => under(file, 'shared/messages'),
    judge: onlyProject(['shared/messages', 'shared/catalogue', 'shared/vocabulary'], /^valibot$/),
  },
  {
    name: 'integrations, config, observability and the worker factory know no domain, HTTP, contract or table',
    files: (file) =>
      under(file, 'shared/integrations', 'shared/config', 'shared/observability', 'shared/worker'),
    judge: (target) =>
      under(target, 'shared/domain', 'shared/http', 'shared/contracts', 'shared/db')
        ? 'forbidden layer'
        : undefined,
  },
  {
    name: 'an entry file composes its contract, the handler factory and use cases of its own domain',
    files: (file) => under(file, 'functions/http'),
    judge: (target, file) => {
      if (isPackage(target)) return `package ${target}`;
      const domain = /^functions\/http\/([^/]+)\//.exec(file)?.[1];
      // Rule 9: its own domain's use cases, never the domain's storage (repositories, stored-item schemas).
      if (under(target, `shared/domain/${domain}`) && /-(repository|item)\.ts$/.test(target))
        return `${target} (an entry file never reaches storage, even of its own domain)`;
      if (under(target, 'shared/http', 'shared/contracts', 'shared/errors', `shared/domain/${domain}`))
        return undefined;
      return `${target} (an entry file never reaches storage or another domain)`;
    },
  },
  {
    name: 'a worker entry composes the worker factory and domain use cases, never storage',
    files: (file) => under(file, 'functions/workers'),
    judge: (target) =>
      under(target, 'shared/worker', 'shared/domain', 'shared/messages') ? undefined : `${target}`,
  },
  {
    name: 'runtime code never imports infrastructure',
    files: (file) => under(file, 'shared', 'functions'),
    judge: (target) => (under(target, 'infra') ? 'infra is not shipped in a function' : undefined),
  },
  {
    name: 'the CDK app reads only the catalogue, the table definition and the environment schema of runtime code',
    files: (file) => under(file, 'infra') && !under(file, 'infra/local'),
    judge: (target) => {
      if (!under(target, 'shared', 'functions')) return undefined;
      return ['shared/db/table-definition.ts', 'shared/config/env.ts'].includes(target) ||
        under(target, 'shared/catalogue')
        ? undefined
        : `${target} is runtime code`;
    },
  },
];

const FILES = [...sourceFiles('shared'), ...sourceFiles('functions'), ...sourceFiles('infra')];

describe('layering (README import rules)', () => {
  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    const governed = FILES.filter(rule.files);
    expect(governed.length).toBeGreaterThan(0);
    const breaches = governed.flatMap((file) =>
      importsOf(file).flatMap((target) => {
        const reason = rule.judge(target, file);
        return reason === undefined ? [] : [`${file} → ${target}: ${reason}`];
      }),
    );
    expect(breaches).toEqual([]);
  });

  it('the rules catch what they are meant to catch', () => {
    const judge = (name: string, target: string, file: string) =>
      RULES.find((rule) => rule.name.startsWith(name))?.judge(target, file);
    expect(judge('domain code', '@middy/core', 'shared/domain/x/a.ts')).toBeDefined();
    expect(
      judge('a domain reaches', 'shared/domain/users/user-repository.ts', 'shared/domain/feeds/a.ts'),
    ).toBeDefined();
    expect(
      judge('a domain reaches', 'shared/domain/users/index.ts', 'shared/domain/feeds/a.ts'),
    ).toBeUndefined();
    expect(judge('contracts', 'shared/domain/users/index.ts', 'shared/contracts/a.ts')).toBeDefined();
    expect(judge('an entry file', 'shared/db/keys/users.ts', 'functions/http/users/a.ts')).toBeDefined();
    expect(judge('an entry file', 'shared/domain/feeds/a.ts', 'functions/http/users/a.ts')).toBeDefined();
    expect(judge('runtime code', 'infra/config.ts', 'shared/http/a.ts')).toBeDefined();
    expect(
      judge('an entry file', 'shared/domain/users/user-repository.ts', 'functions/http/users/a.ts'),
    ).toBeDefined();
    expect(
      judge('an entry file', 'shared/domain/users/user-item.ts', 'functions/http/users/a.ts'),
    ).toBeDefined();
    expect(
      judge('an entry file', 'shared/domain/users/create-user.ts', 'functions/http/users/a.ts'),
    ).toBeUndefined();
  });

  it('sees every import form, a bare side-effect import included', () => {
    const text = [
      "import { a } from './named.ts';",
      "export { b } from './reexported.ts';",
      "const c = await import('./dynamic.ts');",
      "import './side-effect.ts';",
      "  import '@scope/package';",
    ].join('\n');
    expect(importsOf('shared/http/x.ts', text)).toEqual([
      'shared/http/named.ts',
      'shared/http/reexported.ts',
      'shared/http/dynamic.ts',
      'shared/http/side-effect.ts',
      '@scope/package',
    ]);
  });
});

/**
 * The domain graph: an edge from one domain to another for every import between their folders (type imports too:
 * a type names the other domain's shape as surely as a call). Issue 23: no cycle among `shared/domain/*`.
 */
function domainGraph(
  files: readonly string[],
  imports: (file: string) => string[],
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = domainOf(file);
    if (from === undefined) continue;
    for (const target of imports(file)) {
      const to = domainOf(target);
      if (to === undefined || to === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every cycle's domains, each cycle once (depth-first search; a back edge closes a cycle). */
function domainCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        cycles.set([...cycle].sort().join(' '), [...cycle, next]);
      } else visit(next, [...path, next]);
    }
  };
  for (const node of [...graph.keys()].sort()) visit(node, [node]);
  return [...cycles.values()];
}

/**
 * What a domain's public module (`index.ts`) may not export (issue 23): anything of a repository (`*-repository.ts`:
 * other domains reach storage through the owning domain's use cases, read models and write actions), and a
 * stored-item schema (a value of an `*-item.ts` module, or any `*ItemSchema`). The parsed item's type may be
 * exported: it is the read model, without keys.
 */
function publicModuleBreaches(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const breaches: string[] = [];
  for (const match of text.matchAll(/export\s+(type\s+)?(\*|\{([^}]*)\})\s*from\s+['"]([^'"]+)['"]/g)) {
    const [, typeOnly, what, names = '', source = ''] = match;
    const valueNames = names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type '));
    if (/-repository\.ts$/.test(source)) breaches.push(`${file}: ${source} (repository)`);
    else if (/-item\.ts$/.test(source) && !typeOnly && (what === '*' || valueNames.length > 0))
      breaches.push(`${file}: ${source} (${what === '*' ? '*' : valueNames.join(', ')})`);
    else if (valueNames.some((name) => /ItemSchema\b/.test(name)))
      breaches.push(`${file}: ${source} (stored-item schema)`);
  }
  return breaches;
}

describe('domains (issue 23: each domain owns its items)', () => {
  it('no import cycle among shared/domain/*', () => {
    expect(domainCycles(domainGraph(FILES, (file) => importsOf(file)))).toEqual([]);
  });

  it('a deliberate cycle fails', () => {
    const imports: Record<string, string[]> = {
      'shared/domain/a/x.ts': ['shared/domain/b/index.ts'],
      'shared/domain/b/y.ts': ['shared/domain/c/index.ts'],
      'shared/domain/c/z.ts': ['shared/domain/a/index.ts'],
      'shared/domain/d/w.ts': ['shared/domain/a/index.ts'],
    };
    const graph = domainGraph(Object.keys(imports), (file) => imports[file] ?? []);
    expect(domainCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    delete imports['shared/domain/c/z.ts'];
    expect(domainCycles(domainGraph(Object.keys(imports), (file) => imports[file] ?? []))).toEqual([]);
  });

  it('no public module exports a repository or a stored-item schema', () => {
    const breaches = FILES.filter((file) => /^shared\/domain\/[^/]+\/index\.ts$/.test(file)).flatMap((file) =>
      publicModuleBreaches(file),
    );
    expect(breaches.filter((breach) => !PENDING.some((pending) => breach.startsWith(pending)))).toEqual([]);
    // The list below only shrinks: an entry no longer breached must go.
    expect(PENDING.filter((pending) => !breaches.some((breach) => breach.startsWith(pending)))).toEqual([]);
  });

  it('a public module exporting a repository or a stored-item schema fails', () => {
    const file = 'shared/domain/x/index.ts';
    expect(publicModuleBreaches(file, "export { findX } from './x-repository.ts';")).toHaveLength(1);
    expect(publicModuleBreaches(file, "export type { XRow } from './x-repository.ts';")).toHaveLength(1);
    expect(publicModuleBreaches(file, "export * from './x-item.ts';")).toHaveLength(1);
    expect(publicModuleBreaches(file, "export { storedX, type XItem } from './x-item.ts';")).toHaveLength(1);
    expect(publicModuleBreaches(file, "export { XItemSchema } from './x-schemas.ts';")).toHaveLength(1);
    expect(publicModuleBreaches(file, "export type { XItem } from './x-item.ts';")).toEqual([]);
    expect(publicModuleBreaches(file, "export { type XItem } from './x-item.ts';")).toEqual([]);
    expect(publicModuleBreaches(file, "export { findX, xActions } from './x-lookups.ts';")).toEqual([]);
  });
});

/**
 * Public modules that still export storage, as `<index.ts>: <module>`, until their domain's turn comes (issue 23;
 * feeds, courses and profiles are being reshaped by issue 20 at the same time). Entries only ever leave.
 */
const PENDING: string[] = [];
