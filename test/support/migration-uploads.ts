import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import type { Caller } from '../../shared/domain/auth/index.ts';
import type { TestUser } from './api.ts';
import type { FixtureSize } from './buddypress/generate.ts';
import { type FixtureWithImages, loadBuddypressFixture } from './buddypress/load.ts';
import { usePrivateMigrationQueue } from './migration-driver.ts';
import { createAdministrator, dropTestSource, testSource } from './migrations.ts';

export interface UploadsSource {
  fixture: FixtureWithImages;
  admin: TestUser;
  caller: Caller;
  /** The uploads folder the fixture wrote (`BUDDYPRESS_UPLOADS_URL` of this process while the file runs). */
  folder: string;
  queue: Awaited<ReturnType<typeof usePrivateMigrationQueue>>;
}

/**
 * For a test file whose runs copy images: loads the test source with an uploads folder, names the folder in this
 * process's environment, makes an administrator and the private queues the driver delivers (migration-driver.ts);
 * drops the source and the folder afterwards. The answer is filled before the file's tests run.
 */
export function useUploadsSource(size: FixtureSize): UploadsSource {
  const source = {} as UploadsSource;
  beforeAll(async () => {
    source.folder = await mkdtemp(join(tmpdir(), 'bp-uploads-'));
    source.fixture = await loadBuddypressFixture({ ...testSource(), ...size, uploadsDir: source.folder });
    process.env.BUDDYPRESS_UPLOADS_URL = source.folder;
    resetEnvCache();
    ({ admin: source.admin, caller: source.caller } = await createAdministrator());
    source.queue = await usePrivateMigrationQueue(inject('stack'));
  }, 120_000);
  afterAll(async () => {
    delete process.env.BUDDYPRESS_UPLOADS_URL;
    resetEnvCache();
    await dropTestSource();
    await rm(source.folder, { recursive: true, force: true });
  });
  return source;
}
