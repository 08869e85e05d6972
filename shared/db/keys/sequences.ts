import type { ItemKey } from '../partition.ts';

/** Integer id counters. Spaces and courses share `space`; feeds and lessons share `post` (operator-cli.md). */
export type SequenceName =
  | 'user'
  | 'space'
  | 'post'
  | 'comment'
  | 'topic'
  | 'notification'
  | 'media'
  | 'quiz_submission'
  | 'invitation';

export const sequenceKey = (name: SequenceName): ItemKey => ({ pk: `SEQ#${name}`, sk: 'SEQ' });
