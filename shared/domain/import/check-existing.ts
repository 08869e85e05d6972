import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { usernameGuardKey } from '../../db/keys/users.ts';
import type { ItemKey } from '../../db/partition.ts';
import { ImportError } from './import-error.ts';
import type { ImportFile } from './import-schema.ts';
import type { ReferenceScope } from './reference-scope.ts';
import { IMPORT_SECTIONS } from './sections/index.ts';

interface Probe {
  readonly key: ItemKey;
  /** Message when the key is present (a taken login/e-mail/slug) or, for `mustExist`, absent. */
  readonly message: string;
  readonly mustExist?: string;
}

const keyString = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/**
 * Reads every uniqueness guard the sections will write (logins, e-mails, space and topic slugs) and the login
 * guard of every existing user the file references, in BatchGetItem calls. This gives the operator a precise early
 * error; the guards' conditional writes remain what actually enforces uniqueness against concurrent creates.
 * Returns the ids of the referenced existing users, by login.
 */
export async function checkExisting(file: ImportFile, scope: ReferenceScope): Promise<Map<string, number>> {
  const probes: Probe[] = [
    ...IMPORT_SECTIONS.flatMap((section) => section.mustBeFree?.(file[section.name] as never) ?? []),
    ...[...scope.externalLogins].map(([login, where]) => ({
      key: usernameGuardKey(login),
      message: '',
      mustExist: `${where} (neither a ref of this file's users nor an existing login)`,
    })),
  ];
  const found = await batchGet(probes.map((probe) => probe.key));
  const externalIds = new Map<string, number>();
  for (const probe of probes) {
    const item = found.get(keyString(probe.key));
    if (probe.mustExist !== undefined) {
      if (!item) throw new ImportError(probe.mustExist);
      externalIds.set(probe.key.pk.slice('USERNAME#'.length), Number(item.user_id));
    } else if (item) throw new ImportError(probe.message);
  }
  return externalIds;
}

async function batchGet(keys: readonly ItemKey[]): Promise<Map<string, Record<string, unknown>>> {
  const unique = [...new Map(keys.map((key) => [keyString(key), key])).values()];
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < unique.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = unique
      .slice(start, start + 100)
      .map((k) => ({ ...k }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('BatchGetItem kept returning unprocessed keys');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) {
        found.set(keyString({ pk: String(item.pk), sk: String(item.sk) }), item);
      }
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}
