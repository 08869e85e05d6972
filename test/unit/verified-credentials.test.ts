import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearVerifiedCredentials,
  forgetVerified,
  recallVerified,
  rememberVerified,
  type VerifiedCredential,
} from '../../shared/domain/auth/verified-credentials.ts';

/** The authorizer's memory of verified headers: what it keeps, for how long, and how much of it. */
const entry = (userId: number): VerifiedCredential => ({
  userId,
  credential: { kind: 'token', tokenId: `token${userId}` },
  hash: `hash${userId}`,
});

beforeEach(() => clearVerifiedCredentials());

describe('verified credentials', () => {
  it('recalls a header exactly as it was sent, until forgotten', () => {
    rememberVerified('Basic abc', entry(1));
    expect(recallVerified('Basic abc')).toEqual(entry(1));
    expect(recallVerified('Basic abd')).toBeUndefined();
    expect(recallVerified('basic abc')).toBeUndefined();
    forgetVerified('Basic abc');
    expect(recallVerified('Basic abc')).toBeUndefined();
  });

  it('forgets an entry after 300 s', () => {
    const now = 1_000_000;
    rememberVerified('Bearer x', entry(2), now);
    expect(recallVerified('Bearer x', now + 299_999)).toEqual(entry(2));
    expect(recallVerified('Bearer x', now + 300_000)).toBeUndefined();
    expect(recallVerified('Bearer x', now)).toBeUndefined(); // dropped when found expired
  });

  it('holds at most 5 000 headers, dropping the oldest first', () => {
    for (let i = 0; i < 5_001; i++) rememberVerified(`Bearer ${i}`, entry(i));
    expect(recallVerified('Bearer 0')).toBeUndefined();
    expect(recallVerified('Bearer 1')).toEqual(entry(1));
    expect(recallVerified('Bearer 5000')).toEqual(entry(5000));
  });
});
