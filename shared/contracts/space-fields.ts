import * as v from 'valibot';
import { SPACE_PRIVACIES, SPACE_STATUSES, SPACE_TYPES } from '../vocabulary/spaces.ts';
import { integer } from './fields.ts';

/**
 * The fields every space shape shares (a profile's space, an invitation's space, a course read): spread into the
 * shape's object, then add its dates (ISO or `YYYY-MM-DD HH:MM:SS`, as the contract shows it) and its own fields.
 */
export const spaceCoreEntries = {
  id: integer(),
  title: v.string(),
  slug: v.string(),
  description: v.string(),
  logo: v.string(),
  cover_photo: v.string(),
  created_by: integer(),
  parent_id: v.nullable(integer()),
  privacy: v.picklist(SPACE_PRIVACIES),
  serial: integer(),
  status: v.picklist(SPACE_STATUSES),
  type: v.picklist(SPACE_TYPES),
};
