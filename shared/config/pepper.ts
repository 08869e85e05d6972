import { readSecret, resetSecretCache } from './secrets.ts';

/** The password pepper (HMAC key of application passwords and token secrets); see readSecret. */
export const passwordPepper = (): Promise<string> => readSecret('passwordPepper');

export const resetPepperCache = resetSecretCache;
