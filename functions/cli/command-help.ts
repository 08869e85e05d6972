/**
 * What `npm run admin -- --help` and `npm run admin -- <command> --help` print: each command's synopsis, its
 * options and an example. Help goes to standard output and exits 0 (it is what was asked for); a wrong command
 * line still prints the usage on standard error and exits 1. Every command of admin.ts has an entry here (a unit
 * test checks).
 */
export interface CommandHelp {
  readonly synopsis: string;
  readonly about: string;
  readonly options?: readonly string[];
  readonly example: string;
}

const ADMIN = 'npm run --silent admin --';

export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  'user:create': {
    synopsis:
      'user:create --login L --email E [--name "Display Name"] [--role R] [--community-role C] [--password P]',
    about: 'Creates a user and prints its id, username and application password (shown once).',
    options: [
      '--login L             the username (required)',
      '--email E             the e-mail address (required)',
      '--name "N"            the display name (default: the login)',
      '--role R              administrator | member (default member)',
      '--community-role C    admin | moderator | course_admin | course_creator',
      '--password P          the application password: 24 letters and digits, spaces ignored (default: generated)',
    ],
    example: `${ADMIN} user:create --login alice --email alice@example.com --name "Alice"`,
  },
  'token:create': {
    synopsis: 'token:create --login L',
    about: 'Creates a bearer token for a user and prints it (`<token id>.<secret>`, shown once).',
    options: ['--login L   the user (required)'],
    example: `${ADMIN} token:create --login alice`,
  },
  'token:revoke': {
    synopsis: 'token:revoke --token-id ID',
    about: 'Revokes a bearer token by its id (the part before the dot); exit 1 when no token has that id.',
    options: ['--token-id ID   the token id (required)'],
    example: `${ADMIN} token:revoke --token-id 3f9c…`,
  },
  'password:revoke': {
    synopsis: 'password:revoke --login L',
    about: 'Revokes every application password of a user; exit 1 for an unknown login.',
    options: ['--login L   the user (required)'],
    example: `${ADMIN} password:revoke --login alice`,
  },
  'user:suspend': {
    synopsis: 'user:suspend --login L',
    about:
      'Suspends a member: from the next request every call they make is 403 (account not active); exit 1 for an ' +
      'unknown login.',
    options: ['--login L   the user (required)'],
    example: `${ADMIN} user:suspend --login alice`,
  },
  'user:activate': {
    synopsis: 'user:activate --login L',
    about: 'Reactivates a suspended or banned member; exit 1 for an unknown login.',
    options: ['--login L   the user (required)'],
    example: `${ADMIN} user:activate --login alice`,
  },
  import: {
    synopsis: 'import FILE.json',
    about: 'Imports users, spaces, courses, feeds and media from a file, all or nothing (operator-cli.md).',
    example: `${ADMIN} import data.json`,
  },
  'import:recover': {
    synopsis: 'import:recover [--import-id ID]',
    about: 'Rolls back imports a crash interrupted and prints what it did.',
    options: ['--import-id ID   only this import, even if its CLI may still be running elsewhere'],
    example: `${ADMIN} import:recover`,
  },
  'settings:set': {
    synopsis: 'settings:set KEY VALUE',
    about:
      'Sets a site-wide setting: a general key, `privacy.KEY`, `features.KEY` (`features.content_moderation yes`), ' +
      'or one field of an object setting (`group.field`).',
    example: `${ADMIN} settings:set disable_global_posts yes`,
  },
  'digest:run': {
    synopsis: 'digest:run --frequency daily|weekly',
    about: 'Sends the digest e-mails of the current period now (the schedule runs them at 07:00 UTC).',
    options: ['--frequency F   daily | weekly (required)'],
    example: `${ADMIN} digest:run --frequency daily`,
  },
  'migrate:start': {
    synopsis:
      'migrate:start [--items I] [--skip-existing yes|no] [--preserve-dates yes|no] [--avatars yes|no] [--covers yes|no]',
    about:
      'Starts a BuddyPress migration from BUDDYPRESS_URL (every option yes by default); the workers run it.',
    options: [
      '--items I              comma-separated: groups,members,activities (default all three)',
      '--skip-existing yes|no  skip rows an earlier run migrated (default yes)',
      '--preserve-dates yes|no keep the source dates (default yes)',
      '--avatars yes|no       copy avatars (default yes)',
      '--covers yes|no        copy cover images (default yes)',
    ],
    example: `${ADMIN} migrate:start --items groups,members`,
  },
  'migrate:status': {
    synopsis: 'migrate:status [--follow]',
    about:
      'Prints the migration status; --follow draws a progress bar per item on stderr until the run ends.',
    options: ['--follow   wait for the end; exit 1 if the run failed'],
    example: `${ADMIN} migrate:status --follow`,
  },
  'migrate:resume': {
    synopsis: 'migrate:resume',
    about:
      'Sends the current step of a run that stopped moving again, and the images of every member or group still ' +
      'pending (a lost images message holds the totals back); exit 1 when no run is in progress.',
    example: `${ADMIN} migrate:resume`,
  },
  'storage:upgrade': {
    synopsis: 'storage:upgrade [--dry-run]',
    about:
      'Brings a stage written by an earlier storage layout to the current one (feed listing entries; timeline, ' +
      'status, space and topic feed totals recounted; the list copies of quiz submissions; the user search ' +
      'entries carrying their user) and prints what it ' +
      'did per kind; a second run writes ' +
      'nothing (`up_to_date`). Pause feed writes first (README, "Upgrading a stage\'s storage"); safe to stop ' +
      'and run again; exit 1 when requests changed items meanwhile (nothing overwritten: run it again).',
    options: ['--dry-run   count what would be written, write nothing'],
    example: `${ADMIN} storage:upgrade --dry-run`,
  },
};

/** The help of one command. */
export function commandHelp(help: CommandHelp): string {
  return [
    `usage: ${ADMIN} [--data-dir DIR] ${help.synopsis}`,
    help.about,
    ...(help.options?.length ? ['options:', ...help.options.map((line) => `  ${line}`)] : []),
    '  --data-dir DIR   the local stack to act on, by its data folder (default .local, or LOCAL_DATA_DIR)',
    `example: ${help.example}`,
  ].join('\n');
}

/** Every command in one screen. */
export function adminUsage(): string {
  return [
    `usage: ${ADMIN} [--data-dir DIR] <command> [options]    (<command> --help for one command)`,
    '  --data-dir DIR  the local stack to act on, by its data folder (default .local, or LOCAL_DATA_DIR)',
    ...Object.values(COMMAND_HELP).map((help) => `  ${help.synopsis}`),
    `example: ${ADMIN} user:create --login alice --email alice@example.com`,
  ].join('\n');
}
