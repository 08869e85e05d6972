import { inject } from 'vitest';

/** The SES emulator's store, as the invitation and notification e-mail tests read it. */
export type StoredMail = { subject: string; destination: { to: string[] }; body: { text?: string } };

export async function mailsTo(address: string): Promise<StoredMail[]> {
  const response = await fetch(`${inject('sesUrl')}/store`);
  const store = (await response.json()) as { emails: StoredMail[] };
  return store.emails.filter((email) => email.destination.to.includes(address));
}

/** The acceptance link of an invitation e-mail's text. */
export function acceptanceLinkIn(mail: StoredMail | undefined): string {
  const match = /(\S+\/invitations\/[A-Za-z0-9_-]+\/accept)/.exec(mail?.body.text ?? '');
  if (!match?.[1]) throw new Error(`no acceptance link in ${JSON.stringify(mail)}`);
  return match[1];
}
