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
 * A fixture loaded with an uploads folder: `expected.images` says what a copy of avatars and covers must find.
 * A plain `Fixture` never carries it, so code iterating `expected` as result items stays right.
 */
export type FixtureWithImages = Fixture & {
  readonly expected: Fixture['expected'] & { readonly images: ExpectedImages };
};

/**
 * (Re)creates `database` with the BuddyPress tables under `prefix` and fills them with a generated data set, and
 * its uploads folder when `uploadsDir` is given. Answers the fixture (its expected migration counts included).
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
    await connection.query(`DROP DATABASE IF EXISTS \`${options.database}\``);
    await connection.query(`CREATE DATABASE \`${options.database}\` CHARACTER SET utf8mb4`);
    await connection.query(`USE \`${options.database}\``);
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
