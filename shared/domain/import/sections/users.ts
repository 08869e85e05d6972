import { passwordPepper } from '../../../config/pepper.ts';
import { emailGuardKey, userStatsKey, usernameGuardKey } from '../../../db/keys/users.ts';
import { notificationStatsKey } from '../../../db/keys/notifications.ts';
import { renderMarkdown } from '../../text/index.ts';
import {
  buildUserItem,
  formatAppPassword,
  generateAppPassword,
  hashSecret,
  userCreationActions,
} from '../../users/index.ts';
import { itemName } from '../import-error.ts';
import { keyId, type StoredItem } from '../import-plan.ts';
import { defineSection } from './section.ts';

/**
 * `users`: each user with the writes `user:create` makes (the users domain's `userCreationActions`: user item,
 * login and e-mail guards, search entries, application password). The guards go into the plan's guard phase.
 * A new user's aggregates (its stats and notification stats) are declared new: created by the first count, deleted
 * by a rollback.
 */
export const usersSection = defineSection({
  name: 'users',

  resolve(users, scope) {
    users.forEach((user, i) => {
      const where = itemName('users', i, user.ref);
      scope.define('user', user.ref, i, where);
      scope.unique('login', user.login, where, 'login');
      scope.unique('email', user.email, where, 'e-mail');
    });
  },

  mustBeFree: (users) =>
    users.flatMap((user, i) => [
      {
        key: usernameGuardKey(user.login),
        message: `${itemName('users', i, user.ref)}: login "${user.login}" is already taken`,
      },
      {
        key: emailGuardKey(user.email),
        message: `${itemName('users', i, user.ref)}: e-mail "${user.email}" is already used`,
      },
    ]),

  ids: (users) => ({ user: users.length }),

  // The pepper is read only when there are passwords to hash (an empty section hashes none).
  prepare: async (users) => ({ pepper: users.length === 0 ? '' : await passwordPepper() }),

  build(users, context, prepared) {
    const output: Record<string, { id: number; username: string; app_password: string }> = {};
    users.forEach((user, i) => {
      const id = context.takeId('user');
      context.setId('user', user.ref, id);
      const label = itemName('users', i, user.ref);
      const password = user.password ?? generateAppPassword();
      const item = buildUserItem(
        id,
        {
          login: user.login,
          email: user.email,
          displayName: user.display_name,
          firstName: user.first_name,
          lastName: user.last_name,
          hostRole: user.role,
          communityRole: user.community_role,
          status: user.status,
          bio: user.bio,
          website: user.website,
          createdAt: user.created_at ?? context.now,
        },
        user.login,
        user.email,
      );
      const stored = { ...item, short_description_rendered: renderMarkdown(item.short_description) };
      const guards = new Set([usernameGuardKey(user.login), emailGuardKey(user.email)].map(keyId));
      const entity: StoredItem[] = [];
      for (const action of userCreationActions(stored, hashSecret(password, prepared.pepper))) {
        if (!action.Put)
          throw new Error('The import writes new items only; user creation sent another action');
        const written = action.Put.Item as StoredItem;
        if (guards.has(keyId(written)))
          context.plan.guard(written, `${label}: login "${user.login}" or e-mail "${user.email}"`);
        else entity.push(written);
      }
      context.plan.unit(label, entity);
      context.plan.aggregate(userStatsKey(id), { entity: 'user_stats', user_id: id });
      context.plan.aggregate(notificationStatsKey(id));
      output[user.ref] = { id, username: user.login, app_password: formatAppPassword(password) };
    });
    return output;
  },
});
