import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators.ts';
import { objectSize } from '../../shared/integrations/media-bucket.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import { type PendingUpload, postToBucket, requestUpload, smallGif } from '../support/media.ts';

/**
 * The local stack refuses what S3 refuses (infra/local/bundled/presigned-post.ts, in front of the emulator): a POST
 * that does not satisfy its presigned policy stores nothing. Without this, a member could overwrite another's
 * pending upload locally while the cloud would refuse it.
 */
const MB = 1024 * 1024;

async function presigned(user: TestUser, type = 'image/gif'): Promise<PendingUpload> {
  const response = await requestUpload(user, { file_name: 'a.gif', file_type: type, file_size: 100 });
  expect(response.status, response.text).toBe(201);
  const data = response.body.data as { id: number; upload: { url: string; fields: Record<string, string> } };
  return { id: data.id, url: data.upload.url, fields: data.upload.fields };
}

async function refusal(response: Response): Promise<{ status: number; code: string; message: string }> {
  const text = await response.text();
  return {
    status: response.status,
    code: text.match(/<Code>([^<]*)<\/Code>/)?.[1] ?? text,
    message: text.match(/<Message>([^<]*)<\/Message>/)?.[1] ?? '',
  };
}

/** The policy document of a presigned POST, and the same signed again with the given key (SigV4, `s3`). */
function resign(fields: Record<string, string>, policy: object, secret: string): Record<string, string> {
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
  const [, date = '', region = '', service = ''] = (fields['X-Amz-Credential'] ?? '').split('/');
  const step = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const key = step(step(step(step(`AWS4${secret}`, date), region), service), 'aws4_request');
  return {
    ...fields,
    Policy: encoded,
    'X-Amz-Signature': createHmac('sha256', key).update(encoded).digest('hex'),
  };
}

const policyOf = (fields: Record<string, string>) =>
  JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as {
    expiration: string;
    conditions: unknown[];
  };

describe('presigned POST policy on the local bucket', () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([createTestUser(), createTestUser()]);
  });

  it('stores a POST that satisfies its policy (204, the object is there)', async () => {
    const upload = await presigned(user);
    const gif = await smallGif();
    expect((await postToBucket(upload, gif, 'image/gif')).status).toBe(204);
    expect(await objectSize(`pending/${upload.id}`)).toBe(gif.length);
  });

  it("refuses a POST to another key: another member's pending upload cannot be overwritten", async () => {
    const victim = await presigned(other);
    const mine = await presigned(user);
    const response = await postToBucket(
      { ...mine, fields: { ...mine.fields, key: `pending/${victim.id}` } },
      await smallGif(),
      'image/gif',
    );
    expect(await refusal(response)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: expect.stringContaining('Policy Condition failed'),
    });
    expect(await objectSize(`pending/${victim.id}`)).toBeUndefined();
    expect(await objectSize(`pending/${mine.id}`)).toBeUndefined();
  });

  it('refuses a file larger than the policy allows (over 10 MB)', async () => {
    const upload = await presigned(user);
    const response = await postToBucket(upload, new Uint8Array(10 * MB + 1), 'image/gif');
    expect(await refusal(response)).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect(await objectSize(`pending/${upload.id}`)).toBeUndefined();
  });

  it('refuses another Content-Type than the one signed', async () => {
    const upload = await presigned(user);
    const response = await postToBucket(
      { ...upload, fields: { ...upload.fields, 'Content-Type': 'text/html' } },
      await smallGif(),
      'text/html',
    );
    expect(await refusal(response)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await objectSize(`pending/${upload.id}`)).toBeUndefined();
  });

  it('refuses an expired policy, even one signed with a valid key', async () => {
    const upload = await presigned(user);
    const policy = { ...policyOf(upload.fields), expiration: new Date(Date.now() - 1000).toISOString() };
    // Signed again with the local administrator's key, which the front knows: only the expiry is wrong.
    const fields = resign(
      {
        ...upload.fields,
        'X-Amz-Credential': (upload.fields['X-Amz-Credential'] ?? '').replace(
          /^[^/]+/,
          LOCAL_CREDENTIALS.accessKeyId,
        ),
      },
      {
        ...policy,
        conditions: policy.conditions.map((condition) =>
          JSON.stringify(condition).includes('X-Amz-Credential')
            ? {
                'X-Amz-Credential': (upload.fields['X-Amz-Credential'] ?? '').replace(
                  /^[^/]+/,
                  LOCAL_CREDENTIALS.accessKeyId,
                ),
              }
            : condition,
        ),
      },
      LOCAL_CREDENTIALS.secretAccessKey,
    );
    const response = await postToBucket({ ...upload, fields }, await smallGif(), 'image/gif');
    expect(await refusal(response)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy expired.',
    });
    expect(await objectSize(`pending/${upload.id}`)).toBeUndefined();
  });

  it('refuses a policy changed after signing (a later expiry under the old signature)', async () => {
    const upload = await presigned(user);
    const policy = { ...policyOf(upload.fields), expiration: '2099-01-01T00:00:00.000Z' };
    const fields = { ...upload.fields, Policy: Buffer.from(JSON.stringify(policy)).toString('base64') };
    const response = await postToBucket({ ...upload, fields }, await smallGif(), 'image/gif');
    expect(await refusal(response)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('refuses a form field the policy does not name', async () => {
    const upload = await presigned(user);
    const response = await postToBucket(
      { ...upload, fields: { ...upload.fields, 'x-amz-meta-owner': 'someone' } },
      await smallGif(),
      'image/gif',
    );
    expect(await refusal(response)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Extra input fields: x-amz-meta-owner',
    });
  });
});
