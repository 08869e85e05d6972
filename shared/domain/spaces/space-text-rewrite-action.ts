import { spaceKey } from '../../db/keys/spaces.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';
import { renderMarkdown } from '../text/index.ts';

/**
 * The write that gives an existing space a new title and description (a bulk writer bringing its source's text up
 * to date: the migration with `skip_existing` off), with the description's rendering and `updated_at`; the rest
 * stays. Conditioned on the space still existing (one deleted meanwhile stays deleted).
 */
export function spaceTextRewriteAction(
  spaceId: number,
  text: { readonly title: string; readonly description: string },
  updatedAt: string,
): TransactAction {
  return updateAction(spaceKey(spaceId), {
    UpdateExpression:
      'SET title = :title, description = :description, description_rendered = :rendered, updated_at = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':title': text.title,
      ':description': text.description,
      ':rendered': renderMarkdown(text.description),
      ':now': updatedAt,
    },
  });
}
