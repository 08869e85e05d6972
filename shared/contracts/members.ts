import * as v from 'valibot';
import { integer, isoDateTime } from './fields.ts';

/** The member summary (`xprofile`) used in notification lists and quiz results. */
export const memberSummarySchema = v.object({
  user_id: integer(),
  total_points: integer(),
  is_verified: integer(),
  status: v.string(),
  display_name: v.string(),
  username: v.string(),
  avatar: v.string(),
  created_at: isoDateTime(),
  short_description: v.string(),
  meta: v.object({
    website: v.string(),
    cover_photo: v.string(),
    social_links: v.object({
      twitter: v.string(),
      youtube: v.string(),
      linkedin: v.string(),
      fb: v.string(),
      instagram: v.string(),
    }),
    badge_slug: v.array(v.string()),
  }),
  badge: v.null(),
});
