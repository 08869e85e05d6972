import type { ImportFile } from './import-schema.ts';
import { ReferenceScope } from './reference-scope.ts';
import { IMPORT_SECTIONS } from './sections/index.ts';

/**
 * Checks every name the file uses, section by section in the registry's order, before anything is read or
 * written. Returns the scope, which also lists the logins of existing users the file references.
 */
export function resolveReferences(file: ImportFile): ReferenceScope {
  const scope = new ReferenceScope();
  for (const section of IMPORT_SECTIONS) section.resolve(file, scope);
  return scope;
}
