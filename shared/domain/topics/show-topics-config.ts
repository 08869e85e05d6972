import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { getTopicsConfig, type TopicsConfig } from './topics-config.ts';

/** `GET /admin/topics/config`: the configuration record in force (defaults merged). Administrators only. */
export async function showTopicsConfig(caller: Caller): Promise<TopicsConfig> {
  if (!isAdministrator(caller)) throw forbidden();
  return getTopicsConfig();
}
