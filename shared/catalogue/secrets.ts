/**
 * The secrets a function can be granted. Each has the environment variable that carries its id in the cloud (CDK
 * sets it when it grants the secret) and the variable that carries the value itself locally and in tests.
 */
export const SECRETS = {
  passwordPepper: { idVariable: 'PASSWORD_PEPPER_SECRET_ID', localVariable: 'PASSWORD_PEPPER' },
  /**
   * Key of the paging cursors (encrypted and authenticated, so a forged cursor never reaches DynamoDB) and of the
   * signed links in e-mails (digest unsubscribe); each use derives its own key from it.
   */
  cursorKey: { idVariable: 'CURSOR_KEY_SECRET_ID', localVariable: 'CURSOR_KEY' },
  buddypressSource: { idVariable: 'BUDDYPRESS_SECRET_ID', localVariable: 'BUDDYPRESS_URL' },
  /**
   * PEM private key of the media CDN's signing key pair (CloudFront signed URLs of private and secret spaces'
   * media, shared/integrations/private-media-url.ts). Read only by the functions that answer with media URLs.
   */
  mediaSigningKey: { idVariable: 'MEDIA_SIGNING_KEY_SECRET_ID', localVariable: 'MEDIA_SIGNING_KEY' },
} as const;

export type SecretName = keyof typeof SECRETS;
export type SecretIdVariable = (typeof SECRETS)[SecretName]['idVariable'];
export type SecretLocalVariable = (typeof SECRETS)[SecretName]['localVariable'];
export const SECRET_NAMES = Object.keys(SECRETS) as SecretName[];
