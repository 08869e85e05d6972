import mysql from 'mysql2/promise';
import { expect } from 'vitest';
import { loadBuddypressFixture } from './buddypress/load.ts';
import type { Fixture, FixtureSize } from './buddypress/generate.ts';
import type { Caller } from '../../shared/domain/auth/index.ts';
import { api, createTestUser, type TestUser } from './api.ts';

/** The test stack's BuddyPress database (global-setup.ts names it) and its prefix. */
export function testSource(): { serverUrl: string; database: string; prefix: string } {
  const url = new URL(process.env.BUDDYPRESS_URL ?? '');
  return {
    serverUrl: `${url.protocol}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}`,
    database: url.pathname.slice(1),
    prefix: process.env.BUDDYPRESS_TABLE_PREFIX ?? 'wp_',
  };
}

export const loadTestSource = (size: FixtureSize): Promise<Fixture> =>
  loadBuddypressFixture({ ...testSource(), ...size });

export async function dropTestSource(): Promise<void> {
  const { serverUrl, database } = testSource();
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  } finally {
    await connection.end();
  }
}

export type StatusBody = { status: string; migration: Record<string, unknown> | null; code?: string };

/** Polls the status (as the contract intends) until the run is no longer in progress. */
export async function waitForRun(admin: TestUser, timeoutMs = 240_000): Promise<StatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api<StatusBody>('GET', '/migrations/buddypress/status', { as: admin });
    if (response.status !== 200 || response.body.status !== 'in_progress') return response.body;
    if (Date.now() > deadline) throw new Error(`migration still running: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function expectBareError(response: { status: number; body: unknown }, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = response.body as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body).not.toHaveProperty('data');
}

/** What a full run migrates, with every option on (the contract's defaults). */
export const ALL_ITEMS = ['groups', 'members', 'activities'];
export const ALL_OPTIONS = {
  migrate_avatars: true,
  migrate_cover_images: true,
  preserve_dates: true,
  skip_existing: true,
};

/** A new administrator, as a test user (for the API) and as the caller the use cases take (driven runs). */
export async function createAdministrator(): Promise<{ admin: TestUser; caller: Caller }> {
  const admin = await createTestUser({ hostRole: 'administrator' });
  return {
    admin,
    caller: {
      id: admin.id,
      username: admin.username,
      hostRole: 'administrator',
      communityRoles: [],
      status: 'active',
    },
  };
}
