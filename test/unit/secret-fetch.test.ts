import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AwsFront, startAwsFront } from '../../infra/local/bundled/aws-front.ts';
import { resetEnvCache } from '../../shared/config/env.ts';
import { readSecret, resetSecretCache } from '../../shared/config/secrets.ts';

/**
 * In the cloud a secret is read with one SigV4-signed `GetSecretValue` POST (shared/config/secrets-manager-fetch.ts,
 * issue 21 item 21: no Secrets Manager client in the bundles). Checked against the local AWS front, which verifies
 * the signature as AWS does (known key, SigV4 over the signed headers and body) and answers as Secrets Manager.
 */
const ACCESS_KEY = 'AKIDSECRETFETCH';
const SECRET_KEY = 'front-secret-access-key';
const CURSOR_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:cursor-local';
const saved = { ...process.env };
let front: AwsFront;

beforeAll(async () => {
  front = await startAwsFront({
    upstream: {
      dynamodb: 'http://127.0.0.1:9',
      s3: 'http://127.0.0.1:9',
      sqs: 'http://127.0.0.1:9',
      ses: 'http://127.0.0.1:9',
    },
    principals: new Map([[ACCESS_KEY, { secretAccessKey: SECRET_KEY }]]),
    arns: {
      region: 'us-east-1',
      account: '000000000000',
      queueArn: (url) => url,
      mailIdentity: (source) => source,
    },
    secretValue: (arn) => (arn === CURSOR_ARN ? 'cursor-key-from-the-front' : undefined),
  });
});
afterAll(() => front.close());

function withEnvironment(variables: Record<string, string>): void {
  Object.assign(process.env, {
    TABLE_NAME: 'table',
    CURSOR_KEY: '',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL: front.endpoint,
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: SECRET_KEY,
    AWS_SESSION_TOKEN: 'session-token',
    ...variables,
  });
  resetEnvCache();
  resetSecretCache();
}
beforeEach(() => {
  delete process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER;
});
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
  resetSecretCache();
});

describe('reading a secret from Secrets Manager', () => {
  it('signs GetSecretValue with the environment credentials and returns SecretString', async () => {
    withEnvironment({ CURSOR_KEY_SECRET_ID: CURSOR_ARN });
    await expect(readSecret('cursorKey')).resolves.toBe('cursor-key-from-the-front');
  });

  it('fails on a signature AWS would refuse, naming the error, not the value', async () => {
    withEnvironment({ CURSOR_KEY_SECRET_ID: CURSOR_ARN, AWS_SECRET_ACCESS_KEY: 'another-key' });
    await expect(readSecret('cursorKey')).rejects.toThrow(/InvalidSignatureException/);
  });

  it('fails on a secret that does not exist, and tries again on the next read', async () => {
    withEnvironment({ CURSOR_KEY_SECRET_ID: `${CURSOR_ARN}-missing` });
    await expect(readSecret('cursorKey')).rejects.toThrow(/ResourceNotFoundException/);
    process.env.CURSOR_KEY_SECRET_ID = CURSOR_ARN;
    resetEnvCache();
    await expect(readSecret('cursorKey')).resolves.toBe('cursor-key-from-the-front');
  });

  it('follows AWS_ENDPOINT_URL_SECRETS_MANAGER before AWS_ENDPOINT_URL', async () => {
    withEnvironment({
      CURSOR_KEY_SECRET_ID: CURSOR_ARN,
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: front.endpoint,
    });
    await expect(readSecret('cursorKey')).resolves.toBe('cursor-key-from-the-front');
  });
});
