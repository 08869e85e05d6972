/**
 * Sort-key parts shared by every key module. Invariants the access patterns rely on:
 * - ids are integers, zero-padded to 12 digits in sort keys so that string order equals numeric order: counter
 *   ids (below 10^11) pad to a leading `0`, time ids (ids.ts: 16 digits, from 2^52) are wider than the pad and
 *   start with 4–9, so every counter id sorts before every time id and time ids sort among themselves by value
 *   (equal length); stored keys of either kind never change;
 * - timestamps are UTC ISO strings (`2026-01-02T03:04:05.000Z`), which sort chronologically;
 * - a `#<padded id>` suffix makes equal timestamps (or serials) unique and gives a stable order.
 */
export const pad = (id: number): string => String(id).padStart(12, '0');

/** Newest-first lists: creation time, then id. */
export const timeSort = (createdAt: string, id: number): string => `${createdAt}#${pad(id)}`;

/** Display-order lists (topics): serial, then id. */
export const orderSort = (serial: number, id: number): string => `${pad(serial)}#${pad(id)}`;

/**
 * A sort value above every `timeSort(createdAt, id)` of that instant and below every later one (`~` sorts after
 * the digits of a padded id): `>= timeCeiling(t)` means "created after t", `<= timeCeiling(t)` "created at or
 * before t".
 */
export const timeCeiling = (createdAt: string): string => `${createdAt}#~`;
