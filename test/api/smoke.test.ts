import { describe, expect, it } from 'vitest';
import { apiUrl } from '../support/api.ts';
import { runSmoke, SMOKE_CHECKS } from '../smoke/smoke-checks.ts';

/** The workflow's smoke suite (test/smoke/) passes against the local stack, so a red smoke run is the stage's fault. */
describe('smoke suite', () => {
  it(`passes all ${SMOKE_CHECKS.length} checks against the local stack`, async () => {
    const results = await runSmoke(apiUrl());
    expect(results.filter((result) => result.error)).toEqual([]);
    expect(results).toHaveLength(SMOKE_CHECKS.length);
  });
});
