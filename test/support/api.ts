import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { CommunityRole, HostRole, ProfileStatus } from '../../shared/domain/auth/caller.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';

/**
 * The API test harness. The global setup (test/support/global-setup.ts) starts the emulators and the local
 * gateway once per run and provides their addresses; test/support/worker-env.ts copies the function environment
 * into each test worker so helpers here can call domain code (e.g. to create users) against the same table.
 */
export const apiUrl = (): string => inject('apiUrl');

export interface TestUser {
  readonly id: number;
  readonly username: string;
  readonly password: string;
  readonly authorization: string;
}

let counter = 0;
/** A unique login per call, so test files can run in parallel against one table. */
export const uniqueLogin = (prefix = 'user'): string =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${(counter++).toString(36)}_${randomBytes(2).toString('hex')}`;

export async function createTestUser(
  options: {
    login?: string;
    hostRole?: HostRole;
    communityRole?: CommunityRole;
    status?: ProfileStatus;
    displayName?: string;
    email?: string;
  } = {},
): Promise<TestUser> {
  const login = options.login ?? uniqueLogin();
  const created = await createUser({
    login,
    email: options.email ?? `${login}@example.com`,
    displayName: options.displayName,
    hostRole: options.hostRole,
    communityRole: options.communityRole,
    status: options.status,
  });
  const password = created.app_password;
  return {
    id: created.id,
    username: created.username,
    password,
    authorization: `Basic ${Buffer.from(`${created.username}:${password}`).toString('base64')}`,
  };
}

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** One HTTP request through the local gateway. `as` authenticates as a test user. */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: {
    as?: TestUser;
    body?: unknown;
    rawBody?: string | Buffer;
    headers?: Record<string, string>;
    query?: Record<string, string | number | boolean>;
  } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(path.startsWith('http') ? path : `${apiUrl()}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.as) headers.authorization = options.as.authorization;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  // The bundled mode names the AWS calls IAM refused during the request: shown with the body in any failure.
  const denied = response.headers.get('x-local-access-denied');
  const received = await response.text();
  const text = denied ? `${received}\n[bundled mode, IAM] ${denied}` : received;
  let parsed: unknown = text;
  try {
    parsed = received ? JSON.parse(received) : undefined;
  } catch {
    // Not JSON: tests assert on `text`.
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
