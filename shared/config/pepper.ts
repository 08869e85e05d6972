import { env } from './env.ts';

let pepper: Promise<string> | undefined;

/**
 * The password pepper: from PASSWORD_PEPPER locally and in tests, from Secrets Manager in the cloud (fetched
 * once per cold start and kept in memory; never logged). The SDK client is imported lazily so functions that
 * never authenticate do not carry it.
 */
export function passwordPepper(): Promise<string> {
  pepper ??= loadPepper();
  return pepper;
}

async function loadPepper(): Promise<string> {
  const { PASSWORD_PEPPER, PASSWORD_PEPPER_SECRET_ID, AWS_REGION } = env();
  if (PASSWORD_PEPPER) return PASSWORD_PEPPER;
  if (!PASSWORD_PEPPER_SECRET_ID) throw new Error('No password pepper configured');
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({ region: AWS_REGION });
  const result = await client.send(new GetSecretValueCommand({ SecretId: PASSWORD_PEPPER_SECRET_ID }));
  if (!result.SecretString) throw new Error('The password pepper secret is empty');
  return result.SecretString;
}

export function resetPepperCache(): void {
  pepper = undefined;
}
