import * as v from 'valibot';

const id = v.pipe(v.number(), v.integer(), v.minValue(1));
/** An image a chunk named: its reserved media id and the URL it set on the user or space. */
const planned = v.object({ media_id: id, url: v.pipe(v.string(), v.minLength(1)) });

/** Owners per `images` message: each is up to two reads, decodes and re-encodes (see QUEUES' `images`). */
export const IMAGES_PER_MESSAGE = 20;

/**
 * One member or group of a message: where its images go (the uploader, the user or space) and the images the
 * chunk planned. A pending marker keeps it too, so a lost message can be sent again (resend-pending-images.ts).
 */
export const imagesOwnerSchema = v.object({
  source_id: id,
  uploader_id: id,
  object_id: id,
  created_at: v.string(),
  avatar: v.optional(planned),
  cover: v.optional(planned),
});

/**
 * A message on the `images` queue: the avatars and covers a BuddyPress migration chunk found for the members (or
 * groups) it is creating, to store re-encoded in the media bucket. `uploads` is the source's uploads location (so
 * the worker needs no secret to find it); each owner carries the images the chunk planned, at the media ids and
 * URLs it set on the user (`avatar`, `cover_photo`) or space (`logo`, `cover_photo`).
 */
export const imagesMessageSchema = v.object({
  source: v.literal('buddypress'),
  run_id: v.pipe(v.string(), v.minLength(1)),
  uploads: v.pipe(v.string(), v.minLength(1)),
  owner: v.picklist(['member', 'group']),
  images: v.pipe(v.array(imagesOwnerSchema), v.minLength(1), v.maxLength(IMAGES_PER_MESSAGE)),
});

export type ImagesMessage = v.InferOutput<typeof imagesMessageSchema>;
export type ImagesOwner = v.InferOutput<typeof imagesOwnerSchema>;
