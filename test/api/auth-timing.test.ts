import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser, uniqueLogin } from '../support/api.ts';

/**
 * No user enumeration by timing (issue 7, item 2): a wrong user name must cost what a wrong password for an
 * existing user costs. Both kinds of request go through the local gateway, strictly alternating (and swapping
 * which goes first every pair) so whatever else loads the machine weighs on both equally; the medians of a few
 * hundred each are compared. Every request sends a header of its own (a fresh wrong password, a fresh unknown
 * name), so no cache of any kind can answer it. When an unknown user was answered after one read instead of three,
 * the ratio of medians was about 0.5; the band below is wide enough for a loaded 2-core machine and far from that.
 */
const ROUTE = '/notifications/unread';
const PAIRS = 300;
const WARM_UP = 20;

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** 24 letters and digits, like a real application password, never the right one. */
const wrongPassword = () =>
  randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 24);

async function timed(header: string): Promise<number> {
  const started = performance.now();
  const response = await api('GET', ROUTE, { headers: { authorization: header } });
  const elapsed = performance.now() - started;
  expect(response.status, response.text).toBe(401);
  return elapsed;
}

describe('timing of failed Basic authentication', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser();
  });

  it('a wrong user name takes as long as a wrong password for an existing user', async () => {
    const wrongPasswordOfUser = () => basic(user.username, wrongPassword());
    const unknownUser = () => basic(uniqueLogin('ghost'), wrongPassword());
    for (let i = 0; i < WARM_UP; i++) {
      await timed(wrongPasswordOfUser());
      await timed(unknownUser());
    }

    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      if (i % 2 === 0) {
        unknown.push(await timed(unknownUser()));
        wrong.push(await timed(wrongPasswordOfUser()));
      } else {
        wrong.push(await timed(wrongPasswordOfUser()));
        unknown.push(await timed(unknownUser()));
      }
    }

    const ratio = median(unknown) / median(wrong);
    console.info(
      `auth timing: median unknown user ${median(unknown).toFixed(2)} ms, wrong password ` +
        `${median(wrong).toFixed(2)} ms, ratio ${ratio.toFixed(3)} over ${PAIRS} pairs`,
    );
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.25);
  }, 120_000);
});
