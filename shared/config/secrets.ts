import { SECRETS, type SecretName } from '../catalogue/secrets.ts';
import { env } from './env.ts';
import { fetchSecretString } from './secrets-manager-fetch.ts';

const loaded = new Map<SecretName, Promise<string>>();

/**
 * A catalogued secret's value: locally and in tests from its local variable (e.g. `PASSWORD_PEPPER`), in the cloud
 * from Secrets Manager by the id CDK put in its id variable (e.g. `PASSWORD_PEPPER_SECRET_ID`; the function must be
 * granted it in the catalogue). Fetched once per cold start and kept in memory, never logged. A failed read is not
 * remembered: the next call tries again, so one Secrets Manager hiccup does not break a warm function for good.
 * The read is one signed request (secrets-manager-fetch.ts), not the Secrets Manager client, so the functions that
 * read a secret stay lean.
 */
export function readSecret(name: SecretName): Promise<string> {
  let value = loaded.get(name);
  if (!value) {
    value = fetchSecret(name);
    loaded.set(name, value);
    value.catch(() => {
      if (loaded.get(name) === value) loaded.delete(name);
    });
  }
  return value;
}

async function fetchSecret(name: SecretName): Promise<string> {
  const { idVariable, localVariable } = SECRETS[name];
  const environment = env();
  const local = environment[localVariable as keyof typeof environment];
  if (typeof local === 'string' && local !== '') return local;
  const secretId = environment[idVariable];
  if (!secretId) throw new Error(`Secret ${name} is not configured (${localVariable} or ${idVariable})`);
  return fetchSecretString(secretId, environment.AWS_REGION);
}

/** Tests and the local stack change the environment between runs; this forgets every loaded value. */
export function resetSecretCache(): void {
  loaded.clear();
}
