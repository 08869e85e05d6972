import { type ItemKey, indexPartition, type Partition, tablePartition } from '../partition.ts';
import { pad } from './sort.ts';

/**
 * Users, their credentials, search entries, follows and counters. Uniqueness guards (`USERNAME#…`, `EMAIL#…`) are
 * items of their own, written in the same transaction as the user with `attribute_not_exists(pk)`.
 */
export const userKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'USER' });

export const usernameGuardKey = (username: string): ItemKey => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});

export const emailGuardKey = (email: string): ItemKey => ({
  pk: `EMAIL#${email.toLowerCase()}`,
  sk: 'EMAIL',
});

/** Application passwords live in the user's partition, one item each. */
const APP_PASSWORD_SORT_PREFIX = 'APPPW#';
export const appPasswordKey = (userId: number, passwordId: string): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `${APP_PASSWORD_SORT_PREFIX}${passwordId}`,
});
/** The id of an application password, read back from its sort key (the inverse of `appPasswordKey`). */
export const appPasswordIdOf = (sortKey: string): string | undefined =>
  sortKey.startsWith(APP_PASSWORD_SORT_PREFIX) && sortKey.length > APP_PASSWORD_SORT_PREFIX.length
    ? sortKey.slice(APP_PASSWORD_SORT_PREFIX.length)
    : undefined;
/** The application passwords of a user (a handful): `pk = USER#id AND begins_with(sk, APPPW#)`. */
export const userAppPasswords = (userId: number): Partition =>
  tablePartition(`USER#${userId}`, APP_PASSWORD_SORT_PREFIX);

export const tokenKey = (tokenId: string): ItemKey => ({ pk: `TOKEN#${tokenId}`, sk: 'TOKEN' });

/** One search entry per searchable field of a user (display name, login, e-mail). */
export const userSearchKey = (userId: number, field: 'name' | 'login' | 'email'): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `SEARCH#${field}`,
});
/** The field a search entry's sort key names (`userSearchKey`). */
export const userSearchFieldOf = (sk: string): string => sk.slice('SEARCH#'.length);
/** GSI3: every user's search entries, by lower-cased value: prefix search with `begins_with` on the sort key. */
export const userSearchEntries = (valuePrefix?: string): Partition =>
  indexPartition('GSI3', 'USERSEARCH', valuePrefix === undefined ? undefined : valuePrefix.toLowerCase());
export const userSearchSort = (value: string, userId: number): string =>
  `${value.toLowerCase()}#${pad(userId)}`;

/** A follow: the follower in the followed user's partition. */
export const followKey = (followedId: number, followerId: number): ItemKey => ({
  pk: `USER#${followedId}`,
  sk: `FOLLOWER#${pad(followerId)}`,
});
/** The followers of a user, in follower-id order. */
export const userFollowers = (followedId: number): Partition =>
  tablePartition(`USER#${followedId}`, 'FOLLOWER#');
/** The same follow seen from the follower: the followed user in the follower's partition. */
export const followingKey = (followerId: number, followedId: number): ItemKey => ({
  pk: `USER#${followerId}`,
  sk: `FOLLOWING#${pad(followedId)}`,
});
/** The users a user follows, in followed-id order. */
export const userFollowings = (followerId: number): Partition =>
  tablePartition(`USER#${followerId}`, 'FOLLOWING#');

/**
 * Per-user counters, flat attributes moved with ADD in the transaction that changes the counted item:
 * `feeds_published`, `feeds_published_space:<spaceId>`, `comments_published`, `comments_published_space:<spaceId>`,
 * `comments_published_public`, `comments_published_members:<spaceId>`, `media_total`, `media_type:<mime>`,
 * `media_source:<object_source>`. `followers_count` and `followings_count` live on the user item itself (one read
 * serves the profile and every member summary), moved with ADD in the follow's transaction.
 */
export const userStatsKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'STATS' });
