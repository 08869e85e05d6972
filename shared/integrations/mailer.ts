import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { env } from '../config/env.ts';

let client: SESClient | undefined;

/**
 * One SES client per process. Exposed so tests inject faults the emulator cannot produce (a failed send) through
 * `mailerClient().middlewareStack`, never by replacing the client.
 */
export function mailerClient(): SESClient {
  if (!client) {
    const { SES_ENDPOINT, AWS_REGION } = env();
    client = new SESClient({ region: AWS_REGION, ...(SES_ENDPOINT ? { endpoint: SES_ENDPOINT } : {}) });
  }
  return client;
}

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** An HTML alternative to the text (the text part is always sent). */
  readonly html?: string;
}

/** Sends one e-mail from MAIL_FROM (SES v1 SendEmail), text with an optional HTML part; answers SES's message id. */
export async function sendMail(mail: OutgoingMail): Promise<string | undefined> {
  const result = await mailerClient().send(
    new SendEmailCommand({
      Source: env().MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Message: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: {
          Text: { Data: mail.text, Charset: 'UTF-8' },
          ...(mail.html === undefined ? {} : { Html: { Data: mail.html, Charset: 'UTF-8' } }),
        },
      },
    }),
  );
  return result.MessageId;
}
