import { inject } from 'vitest';

/**
 * Test-worker setup: the function environment from the global setup, so domain code called directly from a test
 * (creating users, emitting notifications) talks to the same emulators and table as the gateway's handlers.
 */
Object.assign(process.env, inject('stack').environment);
