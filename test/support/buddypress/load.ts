import mysql from 'mysql2/promise';
import { type Fixture, type FixtureSize, generateFixture } from './generate.ts';
import { buddypressDdl } from './schema.ts';
import { type ExpectedImages, writeBuddypressUploads } from './uploads.ts';

export interface LoadOptions extends FixtureSize {
  /** Server URL without a database, e.g. `mysql://root@127.0.0.1:3306`. */
  readonly serverUrl?: string;
  readonly database: string;
  readonly prefix: string;
  /**
   * Also write the data set's uploads folder here (avatars and covers, uploads.ts); the fixture's
   * `expected.images` then says what a copy must find. Rows and their expected counts are the same either way.
   */
  readonly uploadsDir?: string;
}

const ROWS_PER_INSERT = 2000;
/**
 * The table that marks a database this fixture created (no prefix, so no BuddyPress table shares its name): only
 * such a database is ever dropped and made again.
 */
const MARKER_TABLE = 'community_api_fixture';

/** The named database exists and was not made by this fixture: it is left alone. */
export class FixtureRefused extends Error {
  override name = 'FixtureRefused';
}

/**
 * A fixture loaded with an uploads folder: `expected.images` says what a copy of avatars and covers must find.
 * A plain `Fixture` never carries it, so code iterating `expected` as result items stays right.
 */
export type FixtureWithImages = Fixture & {
  readonly expected: Fixture['expected'] & { readonly images: ExpectedImages };
};

/**
 * (Re)creates `database` with the BuddyPress tables under `prefix` and fills them with a generated data set, and
 * its uploads folder when `uploadsDir` is given. Answers the fixture (its expected migration counts included).
 * An existing database is replaced only when this fixture made it (its marker table); any other is refused with
 * FixtureRefused and nothing is changed.
 */
export async function loadBuddypressFixture(
  options: LoadOptions & { readonly uploadsDir: string },
): Promise<FixtureWithImages>;
export async function loadBuddypressFixture(options: LoadOptions): Promise<Fixture>;
export async function loadBuddypressFixture(options: LoadOptions): Promise<Fixture | FixtureWithImages> {
  if (!/^[A-Za-z0-9_]+$/.test(options.database) || !/^[A-Za-z0-9_]*$/.test(options.prefix))
    throw new Error('database and prefix may hold only letters, digits and _');
  const fixture = generateFixture(options);
  const connection = await mysql.createConnection({
    uri: options.serverUrl ?? 'mysql://root@127.0.0.1:3306',
    charset: 'utf8mb4',
    multipleStatements: false,
  });
  try {
    await refuseForeignDatabase(connection, options.database);
    await connection.query(`DROP DATABASE IF EXISTS \`${options.database}\``);
    await connection.query(`CREATE DATABASE \`${options.database}\` CHARACTER SET utf8mb4`);
    await connection.query(`USE \`${options.database}\``);
    await connection.query(`CREATE TABLE \`${MARKER_TABLE}\` (created_at DATETIME NOT NULL)`);
    await connection.query(`INSERT INTO \`${MARKER_TABLE}\` VALUES (NOW())`);
    // Zero dates are what WordPress stores for unknown registration times.
    await connection.query("SET SESSION sql_mode = ''");
    for (const statement of buddypressDdl(options.prefix)) await connection.query(statement);
    for (const [table, { columns, rows }] of Object.entries(fixture.tables)) {
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        await connection.query(`INSERT INTO \`${options.prefix}${table}\` (${columns.join(', ')}) VALUES ?`, [
          rows.slice(start, start + ROWS_PER_INSERT),
        ]);
      }
    }
  } finally {
    await connection.end();
  }
  if (options.uploadsDir === undefined) return fixture;
  const images = await writeBuddypressUploads(options.uploadsDir, fixture);
  return { ...fixture, expected: { ...fixture.expected, images } };
}

async function refuseForeignDatabase(connection: mysql.Connection, database: string): Promise<void> {
  const [tables] = await connection.query<mysql.RowDataPacket[]>(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
    [database],
  );
  const [schemas] = await connection.query<mysql.RowDataPacket[]>(
    'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
    [database],
  );
  if (schemas.length === 0) return;
  if (tables.some((table) => table.name === MARKER_TABLE)) return;
  throw new FixtureRefused(
    `the database ${database} exists and was not created by this fixture; it is left as it is. ` +
      'Give another --database name (or drop that database yourself).',
  );
}
