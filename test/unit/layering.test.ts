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
    name: 'the db layer imports only the AWS SDK, Powertools idempotency, valibot, config and errors',
    files: (file) => under(file, 'shared/db'),
    judge: onlyProject(
      ['shared/db', 'shared/config', 'shared/errors'],
      /^(@aws-sdk\/|@aws-lambda-powertools\/idempotency|valibot$|node:)/,
    ),
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
