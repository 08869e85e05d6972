import { describe, expect, it } from 'vitest';
import {
  APP_PASSWORD_LENGTH,
  formatAppPassword,
  generateAppPassword,
  generateToken,
  hashesMatch,
  hashSecret,
  isValidAppPassword,
  normalizeAppPassword,
} from '../../shared/domain/users/secret-hash.ts';

/** docs/ARCHITECTURE.md §7: application passwords and tokens, stored only as a keyed hash, compared in constant time. */
describe('application passwords', () => {
  it('are 24 random letters and digits', () => {
    const passwords = Array.from({ length: 200 }, generateAppPassword);
    for (const password of passwords) {
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(isValidAppPassword(password)).toBe(true);
    }
    expect(APP_PASSWORD_LENGTH).toBe(24);
    expect(new Set(passwords).size).toBe(passwords.length);
    // Every class of character shows up across many passwords (no accidental narrow alphabet).
    const all = passwords.join('');
    expect(all).toMatch(/[A-Z]/);
    expect(all).toMatch(/[a-z]/);
    expect(all).toMatch(/[0-9]/);
  });

  it('are shown in groups of four and read back without the spaces', () => {
    const password = 'abcdEFGH1234ijklMNOP5678';
    const shown = formatAppPassword(password);
    expect(shown).toBe('abcd EFGH 1234 ijkl MNOP 5678');
    expect(normalizeAppPassword(shown)).toBe(password);
    expect(normalizeAppPassword(password)).toBe(password);
    expect(normalizeAppPassword(' abcd\tEFGH 1234  ijklMNOP\n5678 ')).toBe(password);
  });

  it.each([
    ['abcdEFGH1234ijklMNOP5678', true],
    ['abcdEFGH1234ijklMNOP567', false],
    ['abcdEFGH1234ijklMNOP56789', false],
    ['abcd EFGH 1234 ijkl MNOP 5678', false],
    ['abcdEFGH1234ijklMNOP567!', false],
    ['abcdEFGH1234ijklMNOP567é', false],
    ['', false],
  ])('isValidAppPassword(%j) → %s (after normalizing only)', (password, valid) => {
    expect(isValidAppPassword(password)).toBe(valid);
  });
});

describe('hashSecret', () => {
  const pepper = 'pepper-one';

  it('is deterministic for the same secret and pepper', () => {
    expect(hashSecret('secret', pepper)).toBe(hashSecret('secret', pepper));
  });

  it('is keyed by the pepper: another pepper gives another hash', () => {
    expect(hashSecret('secret', pepper)).not.toBe(hashSecret('secret', 'pepper-two'));
  });

  it('differs for different secrets, including near misses', () => {
    expect(hashSecret('secret', pepper)).not.toBe(hashSecret('secreT', pepper));
    expect(hashSecret('secret', pepper)).not.toBe(hashSecret('secret ', pepper));
  });

  it('is HMAC-SHA-256 in base64url (43 characters), never the secret itself', () => {
    const hash = hashSecret('abcdEFGH1234ijklMNOP5678', pepper);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('abcdEFGH');
  });

  it('hashes the normalized password, so both printed forms authenticate', () => {
    const password = generateAppPassword();
    expect(hashSecret(normalizeAppPassword(formatAppPassword(password)), pepper)).toBe(
      hashSecret(password, pepper),
    );
  });
});

describe('hashesMatch (constant-time compare)', () => {
  const hash = hashSecret('secret', 'pepper');

  it('matches equal hashes', () => {
    expect(hashesMatch(hash, hashSecret('secret', 'pepper'))).toBe(true);
  });

  it('rejects different hashes of the same length', () => {
    const other = hashSecret('other', 'pepper');
    expect(other.length).toBe(hash.length);
    expect(hashesMatch(hash, other)).toBe(false);
  });

  it('rejects a hash differing in one character only', () => {
    const flipped = (hash[0] === 'A' ? 'B' : 'A') + hash.slice(1);
    expect(hashesMatch(hash, flipped)).toBe(false);
  });

  it('rejects unequal lengths without throwing (timingSafeEqual would)', () => {
    expect(hashesMatch(hash, hash.slice(0, -1))).toBe(false);
    expect(hashesMatch(hash, `${hash}x`)).toBe(false);
    expect(hashesMatch('', hash)).toBe(false);
  });

  it('two empty strings are equal (callers never store empty hashes)', () => {
    expect(hashesMatch('', '')).toBe(true);
  });
});

describe('bearer tokens', () => {
  it('are `<id>.<secret>` with url-safe parts the authenticator accepts', () => {
    const tokens = Array.from({ length: 100 }, generateToken);
    for (const { id, secret, token } of tokens) {
      expect(token).toBe(`${id}.${secret}`);
      // The format authenticate() parses: id 6..64, secret 16..128 url-safe characters.
      expect(token).toMatch(/^[A-Za-z0-9_-]{6,64}\.[A-Za-z0-9_-]{16,128}$/);
      expect(id).toHaveLength(12); // 9 random bytes
      expect(secret).toHaveLength(43); // 32 random bytes (256 bits)
    }
    expect(new Set(tokens.map((token) => token.id)).size).toBe(tokens.length);
    expect(new Set(tokens.map((token) => token.secret)).size).toBe(tokens.length);
  });

  it('store only the keyed hash of the secret', () => {
    const { secret } = generateToken();
    const stored = hashSecret(secret, 'pepper');
    expect(stored).not.toContain(secret);
    expect(hashesMatch(stored, hashSecret(secret, 'pepper'))).toBe(true);
    expect(hashesMatch(stored, hashSecret(secret, 'other pepper'))).toBe(false);
  });
});
