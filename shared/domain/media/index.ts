/** The media domain's public surface: what other domains may use (README, import rules). */
export * from './media-item.ts';
