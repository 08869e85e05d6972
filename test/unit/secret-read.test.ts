import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { passwordPepper } from '../../shared/config/pepper.ts';
import { resetSecretCache } from '../../shared/config/secrets.ts';

/**
 * A failed secret read is never remembered (issue 7, item 1): a warm authorizer whose first pepper read failed must
 * read it again on the next request instead of failing until it is recycled; a successful read is kept.
 */
const saved = { ...process.env };

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-test-table';
  process.env.PASSWORD_PEPPER = '';
  process.env.PASSWORD_PEPPER_SECRET_ID = '';
  resetEnvCache();
  resetSecretCache();
});
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
  resetSecretCache();
});

describe('readSecret', () => {
  it('tries again after a failure, then keeps the value it read', async () => {
    await expect(passwordPepper()).rejects.toThrow(/not configured/);
    await expect(passwordPepper()).rejects.toThrow(/not configured/);

    process.env.PASSWORD_PEPPER = 'first-value';
    resetEnvCache(); // the environment is parsed once per process; the secret memory is left as it is
    await expect(passwordPepper()).resolves.toBe('first-value');

    process.env.PASSWORD_PEPPER = 'second-value';
    resetEnvCache();
    await expect(passwordPepper()).resolves.toBe('first-value');
  });

  it('concurrent first reads share one read', async () => {
    process.env.PASSWORD_PEPPER = 'shared-value';
    resetEnvCache();
    const [a, b] = [passwordPepper(), passwordPepper()];
    expect(a).toBe(b);
    await expect(a).resolves.toBe('shared-value');
  });
});
