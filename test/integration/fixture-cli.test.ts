import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { testSource } from '../support/migrations.ts';

/**
 * `npm run fixture:buddypress` never replaces a database it did not create (README, issue 26): the test run's
 * MariaDB server (never the machine's) holds a database of someone else's, which the fixture refuses and leaves
 * as it is, and one the fixture made, which it may make again.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const { serverUrl } = testSource();
const suffix = randomBytes(4).toString('hex');
const foreign = `someone_elses_${suffix}`;
const own = `fixture_made_${suffix}`;

function fixture(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      TSX,
      [
        'test/support/buddypress/fixture-cli.ts',
        '--server',
        serverUrl,
        '--groups',
        '5',
        '--members',
        '50',
        '--activities',
        '200',
        ...args,
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH } },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function query<T>(sql: string): Promise<T> {
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    return (await connection.query(sql))[0] as T;
  } finally {
    await connection.end();
  }
}

afterAll(async () => {
  await query(`DROP DATABASE IF EXISTS \`${foreign}\``);
  await query(`DROP DATABASE IF EXISTS \`${own}\``);
});

describe('npm run fixture:buddypress', () => {
  it('refuses an existing database it did not create and changes nothing in it', async () => {
    await query(`CREATE DATABASE \`${foreign}\``);
    await query(`CREATE TABLE \`${foreign}\`.wp_posts (id INT PRIMARY KEY)`);
    await query(`INSERT INTO \`${foreign}\`.wp_posts VALUES (7)`);
    const refused = await fixture('--database', foreign);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the database ${foreign} exists and was not created by this fixture`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await query(`SELECT id FROM \`${foreign}\`.wp_posts`)).toEqual([{ id: 7 }]);
  });

  it('makes its own database again', async () => {
    const first = await fixture('--database', own);
    expect(first.code, first.stderr).toBe(0);
    const again = await fixture('--database', own, '--seed', '2');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ database: own, prefix: 'wp_' });
  });
});
