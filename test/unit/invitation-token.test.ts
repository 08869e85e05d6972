import { describe, expect, it } from 'vitest';
import {
  hashInvitationToken,
  newInvitationToken,
  TOKEN_PATTERN,
} from '../../shared/domain/invitations/invitation-token.ts';
import { INVITATION_CLAIM_LEASE_MS } from '../../shared/domain/invitations/invitation-guard-repository.ts';
import { DEFAULT_TIMEOUT_SECONDS, ROUTES } from '../../shared/catalogue/index.ts';

describe('invitation tokens', () => {
  it('are 256 random bits in base64url, never repeated', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newInvitationToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(TOKEN_PATTERN);
  });

  it('are stored as their SHA-256, which does not contain them', () => {
    const token = newInvitationToken();
    const hash = hashInvitationToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashInvitationToken(token));
    expect(hash).not.toContain(token);
    expect(hashInvitationToken(newInvitationToken())).not.toBe(hash);
  });
});

describe('invitation claim lease', () => {
  it('outlives the function that holds it, so a request still sending never loses its claim', () => {
    const route = ROUTES.find((candidate) => candidate.operationId === 'createInvitation')!;
    expect(INVITATION_CLAIM_LEASE_MS).toBeGreaterThan(
      (route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    );
  });
});
