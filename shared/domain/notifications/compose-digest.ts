import { escapeHtml } from '../../vocabulary/html-escape.ts';
import type { NotificationItem } from './notification-item.ts';

/** At most this many notifications are listed in one digest; the rest are counted. */
export const DIGEST_LISTED = 20;

export interface DigestMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * The digest e-mail of one member: a plain-text part and an HTML part listing the newest unread notifications
 * (titles are members' words: escaped in HTML), a count of the rest, and the unsubscribe link that sets the digest
 * to `never`. Pure: the caller chooses the items, says where their links go and signs the unsubscribe link.
 */
export function composeDigest(input: {
  displayName: string;
  frequency: 'daily' | 'weekly';
  items: readonly NotificationItem[];
  /** More unread notifications than `items` holds (the list is capped). */
  more: boolean;
  /** The address people open for a notification's `action_url` (a client app's page: shared/domain/app-link.ts). */
  link: (path: string) => string;
  unsubscribeUrl: string;
}): DigestMail {
  const listed = input.items.slice(0, DIGEST_LISTED);
  const rest = input.items.length - listed.length;
  const restLine = rest > 0 || input.more ? `…and ${input.more ? 'more' : rest} more.` : '';
  const count = input.more ? `${input.items.length}+` : String(input.items.length);
  const subject = `Your ${input.frequency} digest: ${count} unread notification${input.items.length === 1 ? '' : 's'}`;
  const link = (item: NotificationItem) => input.link(item.action_url);
  const text = [
    `Hello ${input.displayName},`,
    '',
    `Here is what happened since your last ${input.frequency} digest:`,
    '',
    ...listed.map((item) => `- ${item.title}${item.action_url ? ` (${link(item)})` : ''}`),
    ...(restLine ? ['', restLine] : []),
    '',
    `Stop these e-mails: ${input.unsubscribeUrl}`,
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(input.displayName)},</p>`,
    `<p>Here is what happened since your last ${input.frequency} digest:</p>`,
    '<ul>',
    ...listed.map((item) =>
      item.action_url
        ? `<li><a href="${escapeHtml(link(item))}">${escapeHtml(item.title)}</a></li>`
        : `<li>${escapeHtml(item.title)}</li>`,
    ),
    '</ul>',
    ...(restLine ? [`<p>${escapeHtml(restLine)}</p>`] : []),
    `<p><a href="${escapeHtml(input.unsubscribeUrl)}">Stop these e-mails</a></p>`,
  ].join('\n');
  return { subject, text, html };
}
