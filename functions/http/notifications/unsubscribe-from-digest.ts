import { unsubscribeFromDigest as contract } from '../../../shared/contracts/notifications.ts';
import { unsubscribeFromDigest } from '../../../shared/domain/notifications/unsubscribe-from-digest.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';

export const handler = publicHttpHandler(contract, ({ query }) => unsubscribeFromDigest(query.token));
