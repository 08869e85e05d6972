import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from './sha256.ts';

/**
 * `GetSecretValue` as one SigV4-signed POST (Secrets Manager's JSON 1.1 protocol), instead of the Secrets Manager
 * client: the signer is the one every bundle already carries for DynamoDB, so a function reading a secret carries
 * ~1 KB more rather than the client's ~29 KB (issue 21, item 21; `npm run report:bundles`).
 *
 * Credentials are the environment's (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), which is
 * where Lambda puts the function role's, and where the bundled mode puts each function's own. The endpoint follows
 * the SDK's variables (`AWS_ENDPOINT_URL_SECRETS_MANAGER`, then `AWS_ENDPOINT_URL`: the local AWS front), else the
 * region's public endpoint. The value is returned, never logged; errors name the secret's id and AWS's error code.
 */
export async function fetchSecretString(secretId: string, region: string): Promise<string> {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new Error('No AWS credentials in the environment');
  const endpoint = new URL(
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER ||
      process.env.AWS_ENDPOINT_URL ||
      `https://secretsmanager.${region}.amazonaws.com`,
  );
  const body = JSON.stringify({ SecretId: secretId });
  const signer = new SignatureV4({
    service: 'secretsmanager',
    region,
    credentials: { accessKeyId, secretAccessKey, sessionToken: process.env.AWS_SESSION_TOKEN || undefined },
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: '/',
    query: {},
    headers: {
      host: endpoint.host,
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'secretsmanager.GetSecretValue',
    },
    body,
  });
  const response = await fetch(new URL('/', endpoint), {
    method: 'POST',
    headers: signed.headers,
    body,
    signal: AbortSignal.timeout(5000),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    SecretString?: string;
    __type?: string;
  };
  if (!response.ok) {
    const code = answer.__type?.split('#').pop() ?? `HTTP ${response.status}`;
    throw new Error(`GetSecretValue of ${secretId} failed: ${code}`);
  }
  if (!answer.SecretString) throw new Error(`Secret ${secretId} is empty`);
  return answer.SecretString;
}
