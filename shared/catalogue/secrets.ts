/**
 * The secrets a function can be granted. Each has the environment variable that carries its id in the cloud (CDK
 * sets it when it grants the secret) and the variable that carries the value itself locally and in tests.
 */
export const SECRETS = {
  passwordPepper: { idVariable: 'PASSWORD_PEPPER_SECRET_ID', localVariable: 'PASSWORD_PEPPER' },
  buddypressSource: { idVariable: 'BUDDYPRESS_SECRET_ID', localVariable: 'BUDDYPRESS_URL' },
} as const;

export type SecretName = keyof typeof SECRETS;
export type SecretIdVariable = (typeof SECRETS)[SecretName]['idVariable'];
export const SECRET_NAMES = Object.keys(SECRETS) as SecretName[];
