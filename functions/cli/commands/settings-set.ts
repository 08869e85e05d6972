import { isAppError } from '../../../shared/errors/app-error.ts';
import { resolveOperatorSetting } from '../../../shared/domain/settings/operator-setting.ts';
import { putSetting } from '../../../shared/domain/settings/settings-groups.ts';
import { createSettingsCopies } from '../../../shared/domain/settings/settings-repository.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/** `settings:set KEY VALUE`: general settings, or privacy settings as `privacy.<key>`. */
export async function settingsSetCommand(args: ParsedArgs): Promise<{ key: string; value: unknown }> {
  assertKnownOptions(args, []);
  const [key, value, ...extra] = args.positionals;
  if (key === undefined || value === undefined || extra.length > 0) {
    throw new CliError('Usage: settings:set KEY VALUE');
  }
  try {
    const setting = resolveOperatorSetting(key, value);
    // Every group gets its copies (once per stage; a no-op afterwards), so that reads stop touching single items.
    await createSettingsCopies();
    await putSetting(setting.group, setting.name, setting.value);
    return { key, value: setting.value };
  } catch (error) {
    if (isAppError(error)) throw new CliError(error.message);
    throw error;
  }
}
