import type { DigestMessage } from '../../messages/index.ts';
import { planDigests } from './plan-digests.ts';
import { sendMemberDigest } from './send-member-digest.ts';

/** The digest worker's step: a plan message fans out, a member message mails one digest. */
export async function handleDigestMessage(message: DigestMessage): Promise<void> {
  if (message.kind === 'plan') await planDigests(message);
  else await sendMemberDigest(message);
}
