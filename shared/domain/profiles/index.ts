/** The profiles domain's public surface: what other domains may use (README, import rules). */
export { type ProfileResponse, toProfile } from './profile-mapper.ts';
export { compilationScore } from './profile-points.ts';
