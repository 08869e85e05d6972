import * as v from 'valibot';
import { migrationRunPendingImages } from '../../db/keys/migrations.ts';
import { queryAll } from '../../db/reads.ts';
import { publishBatch } from '../../integrations/queue-publisher.ts';
import { type ImagesOwner, imagesOwnerSchema } from '../../messages/images.ts';
import { imagesMessages } from './image-copies.ts';

/** A pending marker and the part of the `images` message it was put for. */
const pendingSchema = v.object({
  owner: v.picklist(['member', 'group']),
  uploads: v.pipe(v.string(), v.minLength(1)),
  images: imagesOwnerSchema,
});

/**
 * Sends the `images` work of every member or group of the run still pending again, from its marker (one Query of
 * the run's pending partition, page by page): the way out when a message reached the DLQ without its last delivery
 * recording it, which would keep the run's tally waiting forever. A message still in flight is only doubled: its
 * owners are stored again at the same keys and counted once (their done markers), and whichever delivery removes
 * the last marker plans the tally. Answers how many owners were sent.
 */
export async function resendPendingImages(runId: string): Promise<number> {
  const byMessage = new Map<string, { owner: 'member' | 'group'; uploads: string; entries: ImagesOwner[] }>();
  for await (const page of queryAll(migrationRunPendingImages(runId), pendingSchema, { consistent: true }))
    for (const marker of page) {
      const key = `${marker.owner}\0${marker.uploads}`;
      const group = byMessage.get(key) ?? { owner: marker.owner, uploads: marker.uploads, entries: [] };
      group.entries.push(marker.images);
      byMessage.set(key, group);
    }
  let sent = 0;
  for (const { owner, uploads, entries } of byMessage.values()) {
    await publishBatch('images', imagesMessages(runId, uploads, owner, entries));
    sent += entries.length;
  }
  return sent;
}
