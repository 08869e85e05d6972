import { toJsonSchema } from '@valibot/to-json-schema';
import type { RouteEntry } from '../../shared/catalogue/index.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import type { Operation } from '../../shared/contracts/operation.ts';

/**
 * Requests every catalogued route accepts as far as validation goes: path parameters filled with `1`, the smallest
 * valid body derived from the contract (or `SAMPLE_BODIES` when the derivation cannot satisfy a format), required
 * queries from `SAMPLE_QUERIES`. Used by the tests that walk the whole catalogue (permission matrix, idempotency).
 */
// biome-ignore lint/suspicious/noExplicitAny: walking generated JSON Schema.
type Json = Record<string, any>;

/** Bodies the derivation below cannot produce (formats, cross-field rules), by operation id. */
export const SAMPLE_BODIES: Readonly<Record<string, unknown>> = {
  createInvitation: { space_id: '1', email: 'matrix@example.com' },
};
/** Required query parameters of role-restricted routes, so validation does not answer first. */
export const SAMPLE_QUERIES: Readonly<Record<string, Record<string, string>>> = {
  searchSpaceUsers: { space_id: '1' },
};

export const pathOf = (route: RouteEntry) => route.path.replace(/\{[^}]+\}/g, '1');
export const contractOf = (route: RouteEntry): Operation => {
  const contract = CONTRACTS[route.operationId];
  if (!contract) throw new Error(`no contract for ${route.operationId}`);
  return contract;
};

/** The smallest value a JSON Schema accepts, as far as can be told without a validator. */
function sample(schema: Json | undefined): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf[0]);
  if (Array.isArray(schema.oneOf)) return sample(schema.oneOf[0]);
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part: Json) => sample(part)));
  switch (schema.type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const name of (schema.required as string[] | undefined) ?? [])
        result[name] = sample(schema.properties?.[name]);
      return result;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}

export function bodyFor(route: RouteEntry): unknown {
  if (route.operationId in SAMPLE_BODIES) return SAMPLE_BODIES[route.operationId];
  const contract = contractOf(route);
  if (!contract.body || contract.bodyKind === 'multipart') return undefined;
  return sample(
    toJsonSchema(contract.body, { errorMode: 'ignore', typeMode: 'input', target: 'draft-2020-12' }) as Json,
  );
}
