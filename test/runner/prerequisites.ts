import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { javaMajorVersion, MIN_JAVA_VERSION } from '../../infra/local/dynamodb-local.ts';

/**
 * What the test steps need from the machine, and how `npm test` gets it: Java for DynamoDB Local, MariaDB's
 * server programs for the migration tests' own server (test/support/private-mariadb.ts: no running server, no
 * account), Chromium for the API reference page test. Each comes from Debian's packages; when one is missing,
 * `npm test` installs it (apt-get update first) if it may: as root, or through `sudo -n` (no password prompt),
 * and not with `--no-install` / `TEST_INSTALL=no`. Otherwise it says in one line what is missing and how to get
 * it, and runs nothing.
 */
export type Need = 'java' | 'mariadb' | 'chromium';

interface Requirement {
  /** What it is and which tests need it, for the one-line messages. */
  readonly what: string;
  readonly present: () => boolean;
  /** Debian packages that provide it. */
  readonly packages: readonly string[];
  /** Another way than the packages, when there is one. */
  readonly alternative?: string;
}

const onPath = (program: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;

export const REQUIREMENTS: Record<Need, Requirement> = {
  java: {
    what: 'Java 17+ (DynamoDB Local, for the integration and API tests)',
    present: () => (javaMajorVersion() ?? 0) >= MIN_JAVA_VERSION,
    packages: ['openjdk-17-jre-headless'],
  },
  mariadb: {
    what: "MariaDB's server programs mariadbd and mariadb-install-db (the migration tests' own server)",
    present: () =>
      Boolean(process.env.TEST_MYSQL_URL) ||
      ((existsSync('/usr/sbin/mariadbd') || onPath('mariadbd')) &&
        onPath('mariadb-install-db') &&
        onPath('my_print_defaults')),
    packages: ['mariadb-server-core', 'mariadb-client-core'],
    alternative: 'or set TEST_MYSQL_URL=mysql://user:password@127.0.0.1:3306 to use a running server',
  },
  chromium: {
    what: 'Chromium (test/api/api-reference.test.ts renders the API reference page)',
    present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    packages: ['chromium'],
    alternative: 'or set CHROMIUM_PATH to another Chromium binary',
  },
};

/** How packages can be installed here: as root, through passwordless sudo, or not at all. */
function installer(): string[] | undefined {
  if (!onPath('apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  if (spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

function apt(prefix: string[], args: string[], log: (line: string) => void): boolean {
  const [command, ...rest] = [...prefix, 'apt-get', ...args];
  const result = spawnSync(command!, rest, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status === 0) return true;
  log(
    `apt-get ${args.join(' ')} failed:\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim().slice(-3000)}`,
  );
  return false;
}

/**
 * Checks every need, installs what is missing when it may, and answers the lines to print for what is still
 * missing (empty: everything is there).
 */
export function ensurePrerequisites(
  needs: ReadonlySet<Need>,
  options: { install: boolean; log: (line: string) => void },
): string[] {
  const missing = [...needs].filter((need) => !REQUIREMENTS[need].present());
  if (missing.length === 0) return [];
  const prefix = options.install ? installer() : undefined;
  if (prefix) {
    const packages = missing.flatMap((need) => REQUIREMENTS[need].packages);
    options.log(`installing ${packages.join(', ')} (Debian packages; npm test -- --no-install only checks)`);
    const installed =
      apt(prefix, ['update', '-qq'], options.log) &&
      apt(prefix, ['install', '-y', '-qq', '--no-install-recommends', ...packages], options.log);
    if (installed) return missingLines(missing.filter((need) => !REQUIREMENTS[need].present()));
  }
  return missingLines(missing);
}

function missingLines(missing: readonly Need[]): string[] {
  return missing.map((need) => {
    const requirement = REQUIREMENTS[need];
    const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
    const install = `${sudo}apt-get install ${requirement.packages.join(' ')}`;
    return `missing: ${requirement.what}; install it with \`${install}\`${requirement.alternative ? ` (${requirement.alternative})` : ''}`;
  });
}
