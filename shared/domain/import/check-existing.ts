import * as v from 'valibot';
import type { ItemKey } from '../../db/partition.ts';
import { batchGetItems } from '../../db/reads.ts';
import { findGuardHolders } from '../users/index.ts';
import { ImportError } from './import-error.ts';
import type { ImportFile } from './import-schema.ts';
import type { ReferenceScope } from './reference-scope.ts';
import { IMPORT_SECTIONS } from './sections/index.ts';
import type { FreeKeyProbe } from './sections/section.ts';

/** A guard item of any kind, read for its presence only: its keys are all this check needs of it. */
const PresentItemSchema = v.object({ pk: v.string(), sk: v.string() });
const keyId = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/**
 * Reads every uniqueness guard the sections will write (logins, e-mails, space and topic slugs) and, through the
 * users domain, the login guard of every existing user the file references: two batch reads side by side. This
 * gives the operator a precise early error; the guards' conditional writes remain what actually enforces
 * uniqueness against concurrent creates. Returns the ids of the referenced existing users, by (normalized) login.
 */
export async function checkExisting(file: ImportFile, scope: ReferenceScope): Promise<Map<string, number>> {
  const probes: FreeKeyProbe[] = IMPORT_SECTIONS.flatMap((section) => section.mustBeFree(file));
  const logins = [...scope.externalLogins.keys()];
  const [taken, holders] = await Promise.all([
    probes.length === 0
      ? []
      : batchGetItems(
          probes.map((probe) => probe.key),
          PresentItemSchema,
          { consistent: true },
        ),
    logins.length === 0 ? undefined : findGuardHolders(logins, []),
  ]);
  const takenIds = new Set(taken.map(keyId));
  const refused = probes.find((probe) => takenIds.has(keyId(probe.key)));
  if (refused) throw new ImportError(refused.message);
  for (const [login, where] of scope.externalLogins) {
    if (!holders?.byUsername.has(login))
      throw new ImportError(`${where} (neither a ref of this file's users nor an existing login)`);
  }
  return holders?.byUsername ?? new Map();
}
