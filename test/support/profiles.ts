import { api, type TestUser } from './api.ts';

/** Profile test helpers: the profile routes through the local gateway. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the tests.
export type Json = Record<string, any>;

export const getProfile = (as: TestUser, username: string) =>
  api<{ profile: Json }>('GET', `/profile/${encodeURIComponent(username)}`, { as });

export const getMyProfile = (as: TestUser) => api<{ profile: Json }>('GET', '/profile/me', { as });

export const updateMyProfile = (as: TestUser, body: unknown) =>
  api<{ message: string; data: Json }>('PUT', '/profile/me', { as, body });

export const follow = (as: TestUser, username: string) =>
  api<{ message: string; data: Json }>('POST', `/profile/${username}/follow`, { as });

export const unfollow = (as: TestUser, username: string) =>
  api<{ message: string; data: Json }>('DELETE', `/profile/${username}/follow`, { as });

export const profileList = <T = Json>(
  as: TestUser,
  username: string,
  list: 'comments' | 'spaces' | 'media' | 'followers' | 'followings',
  query: Record<string, string | number> = {},
) => api<T>('GET', `/profile/${username}/${list}`, { as, query });
