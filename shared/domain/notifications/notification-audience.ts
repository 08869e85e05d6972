import type { NotifyMessage } from '../../messages/index.ts';
import { logger } from '../../observability/logger.ts';
import { findSpaceStaffIds } from '../spaces/index.ts';

/** One received message of the `notify` queue: `receiptId` names it in the answer (the SQS message id). */
export interface ReceivedNotifyMessage {
  readonly receiptId: string;
  readonly message: NotifyMessage;
}

/**
 * The batch with every message's audience spelled out in `recipient_ids`: a message naming a space's staff
 * (`space_staff_of`) gets the space's active admins and moderators, read now (two Queries of the members-by-role
 * index per space, each space once). A message whose staff could not be read is left out and answered in `failed`,
 * to be delivered again.
 */
export async function withRecipients(
  received: readonly ReceivedNotifyMessage[],
): Promise<{ resolved: ReceivedNotifyMessage[]; failed: Set<string> }> {
  const spaceIds = new Set(received.flatMap(({ message }) => message.space_staff_of ?? []));
  const staffOf = new Map<number, number[] | undefined>();
  await Promise.all(
    [...spaceIds].map(async (spaceId) => {
      const staff = await findSpaceStaffIds(spaceId).catch((error: unknown) => {
        logger.error('could not read the staff of a space to notify', { spaceId, error });
        return undefined;
      });
      staffOf.set(spaceId, staff);
    }),
  );
  const resolved: ReceivedNotifyMessage[] = [];
  const failed = new Set<string>();
  for (const entry of received) {
    const spaceId = entry.message.space_staff_of;
    if (spaceId === undefined) {
      resolved.push(entry);
      continue;
    }
    const staff = staffOf.get(spaceId);
    if (staff === undefined) failed.add(entry.receiptId);
    else {
      const recipients = [...new Set([...entry.message.recipient_ids, ...staff])];
      resolved.push({ ...entry, message: { ...entry.message, recipient_ids: recipients } });
    }
  }
  return { resolved, failed };
}
