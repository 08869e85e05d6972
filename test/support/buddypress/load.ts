import mysql from 'mysql2/promise';
import { type Fixture, type FixtureSize, generateFixture } from './generate.ts';
import { buddypressDdl } from './schema.ts';

export interface LoadOptions extends FixtureSize {
  /** Server URL without a database, e.g. `mysql://root@127.0.0.1:3306`. */
  readonly serverUrl?: string;
  readonly database: string;
  readonly prefix: string;
}

const ROWS_PER_INSERT = 2000;

/**
 * (Re)creates `database` with the BuddyPress tables under `prefix` and fills them with a generated data set.
 * Answers the fixture (its expected migration counts included).
 */
export async function loadBuddypressFixture(options: LoadOptions): Promise<Fixture> {
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
  return fixture;
}
