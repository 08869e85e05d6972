import * as v from 'valibot';
import type { SettingsGroup } from '../../db/keys/settings.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  FEATURE_SETTING_SCHEMAS,
  GENERAL_SETTING_SCHEMAS,
  PRIVACY_SETTING_SCHEMAS,
} from './settings-schemas.ts';

/** The groups an operator addresses with a `<prefix>.` before the key; a bare key is a general setting. */
const PREFIXED_GROUPS = [
  ['privacy', PRIVACY_SETTING_SCHEMAS],
  ['features', FEATURE_SETTING_SCHEMAS],
] as const;

export interface ResolvedSetting {
  readonly group: SettingsGroup;
  /** The attribute name inside the group item. */
  readonly name: string;
  readonly value: unknown;
}

const invalid = (message: string) => new AppError('invalid_setting', 400, message);

/**
 * Resolves an operator's `KEY VALUE` (both strings from a command line): `privacy.<key>` addresses the privacy
 * group, `features.<key>` the features group (`features.content_moderation yes`), a bare key the general group. The value is typed by the key: the raw string when the key takes a
 * string (so `site_title 123` stays text and `yes` stays `yes`), otherwise the JSON it parses to.
 */
export function resolveOperatorSetting(key: string, rawValue: string): ResolvedSetting {
  const nested = resolveNestedGeneralSetting(key, rawValue);
  if (nested) return nested;
  const prefixed = PREFIXED_GROUPS.find(([prefix]) => key.startsWith(`${prefix}.`));
  const [group, name, schemas]: readonly [SettingsGroup, string, object] = prefixed
    ? [prefixed[0], key.slice(prefixed[0].length + 1), prefixed[1]]
    : ['general', key, GENERAL_SETTING_SCHEMAS];
  const schema = Object.hasOwn(schemas, name)
    ? (schemas as Record<string, v.GenericSchema>)[name]
    : undefined;
  if (!schema) {
    const known = [
      ...Object.keys(GENERAL_SETTING_SCHEMAS),
      ...PREFIXED_GROUPS.flatMap(([prefix, keys]) => Object.keys(keys).map((k) => `${prefix}.${k}`)),
    ];
    throw invalid(`Unknown setting "${key}". Known settings: ${known.join(', ')}.`);
  }
  for (const candidate of valueCandidates(rawValue)) {
    const result = v.safeParse(schema, candidate);
    if (result.success) return { group, name, value: result.output };
  }
  const reason = v.safeParse(schema, parseJsonValue(rawValue) ?? rawValue).issues?.[0]?.message ?? 'invalid';
  throw invalid(`Invalid value for "${key}": ${reason}.`);
}

/**
 * `access.acess_level VALUE`: one field of a general setting that is an object. The group item holds the object
 * whole, so the field is written as that object (today `access` has this one field).
 */
function resolveNestedGeneralSetting(key: string, rawValue: string): ResolvedSetting | undefined {
  const [parent, field, ...rest] = key.split('.');
  if (
    parent === undefined ||
    field === undefined ||
    rest.length > 0 ||
    PREFIXED_GROUPS.some(([prefix]) => prefix === parent)
  )
    return undefined;
  // Own keys only: `constructor` and the like are no setting.
  const schema = Object.hasOwn(GENERAL_SETTING_SCHEMAS, parent)
    ? (GENERAL_SETTING_SCHEMAS as Readonly<Record<string, v.GenericSchema | undefined>>)[parent]
    : undefined;
  if (schema === undefined) return undefined;
  for (const candidate of valueCandidates(rawValue)) {
    const result = v.safeParse(schema, { [field]: candidate });
    if (result.success) return { group: 'general', name: parent, value: result.output };
  }
  throw invalid(`Invalid setting "${key}": ${parent} has no field "${field}" taking that value.`);
}

function valueCandidates(raw: string): unknown[] {
  const parsed = parseJsonValue(raw);
  return parsed === undefined ? [raw] : [raw, parsed];
}

/** JSON objects, arrays, booleans and numbers; anything else is taken as the string it is. */
function parseJsonValue(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && ['object', 'boolean', 'number'].includes(typeof parsed)) return parsed;
  } catch {
    // Not JSON: the value is the string itself.
  }
  return undefined;
}
