import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemKey, Partition } from '../../shared/db/partition.ts';

/**
 * Every key module under shared/db/keys/ is called with sample arguments; what the builders produce is reduced to
 * its shape (sample values replaced by `{}`), and the shapes must not collide: two kinds of item with the same
 * table key shape, two access patterns with the same partition, or a `begins_with` prefix that matches more than
 * the one kind of item it lists would each let one pattern read another's items.
 */
const KEYS_DIR = join(import.meta.dirname, '../../shared/db/keys');
const SAMPLE_NUMBERS = [7301, 7302, 7303, 7304];
const SAMPLE_STRINGS = ['s7301', 's7302', 's7303', 's7304'];

type Produced = { module: string; builder: string; key?: ItemKey; partition?: Partition };

function shape(value: string): string {
  let result = value;
  for (const sample of [
    ...SAMPLE_STRINGS,
    ...SAMPLE_NUMBERS.map((n) => String(n).padStart(12, '0')),
    ...SAMPLE_NUMBERS.map(String),
  ]) {
    result = result.split(sample).join('{}');
  }
  return result;
}

const isKey = (value: unknown): value is ItemKey =>
  typeof value === 'object' &&
  value !== null &&
  'pk' in value &&
  'sk' in value &&
  Object.keys(value).length === 2;
const isPartition = (value: unknown): value is Partition =>
  typeof value === 'object' && value !== null && 'partitionKey' in value && 'value' in value;

async function produce(): Promise<Produced[]> {
  const produced: Produced[] = [];
  for (const file of readdirSync(KEYS_DIR).filter((name) => name.endsWith('.ts'))) {
    const module = (await import(join(KEYS_DIR, file))) as Record<string, unknown>;
    for (const [builder, fn] of Object.entries(module)) {
      if (typeof fn !== 'function') continue;
      // Numbers for ids, strings for names; builders taking a string get a string either way in the template.
      for (const args of [SAMPLE_NUMBERS, SAMPLE_STRINGS]) {
        let value: unknown;
        try {
          value = (fn as (...a: unknown[]) => unknown)(...args.slice(0, fn.length));
        } catch {
          continue;
        }
        if (isKey(value)) produced.push({ module: file, builder, key: value });
        else if (isPartition(value)) produced.push({ module: file, builder, partition: value });
      }
    }
  }
  return produced;
}

describe('key builders', async () => {
  const produced = await produce();
  const keys = produced.filter((entry) => entry.key);
  const partitions = produced.filter((entry) => entry.partition);

  it('find the builders of every key module', () => {
    expect(keys.length).toBeGreaterThan(20);
    expect(partitions.length).toBeGreaterThan(20);
  });

  it('no two item kinds share a table key shape', () => {
    const owners = new Map<string, Set<string>>();
    for (const { builder, key } of keys) {
      const id = `${shape(key!.pk)} | ${shape(key!.sk)}`;
      owners.set(id, (owners.get(id) ?? new Set()).add(builder));
    }
    // courseStatsKey is spaceStatsKey by design (courses are spaces).
    const clashes = [...owners].filter(
      ([, builders]) =>
        builders.size > 1 &&
        !(builders.has('courseStatsKey') && builders.has('spaceStatsKey') && builders.size === 2),
    );
    expect(clashes).toEqual([]);
  });

  it('no two access patterns share an index partition', () => {
    const owners = new Map<string, Set<string>>();
    for (const { builder, partition } of partitions) {
      if (partition!.index === undefined) continue;
      const id = `${partition!.index} ${shape(partition!.value)} ${partition!.sortPrefix === undefined ? '' : shape(partition!.sortPrefix)}`;
      owners.set(id, (owners.get(id) ?? new Set()).add(builder));
    }
    expect([...owners].filter(([, builders]) => builders.size > 1)).toEqual([]);
  });

  it('a begins_with prefix on the table lists exactly one kind of item', () => {
    const problems: string[] = [];
    for (const { builder, partition } of partitions) {
      if (partition!.index !== undefined || partition!.sortPrefix === undefined) continue;
      const pk = shape(partition!.value);
      const prefix = shape(partition!.sortPrefix);
      const kinds = new Set(
        keys
          .filter(({ key }) => shape(key!.pk) === pk && shape(key!.sk).startsWith(prefix))
          .map((entry) => entry.builder),
      );
      if (kinds.size !== 1)
        problems.push(`${builder} (${pk} / ${prefix}…) lists ${[...kinds].join(', ') || 'nothing'}`);
    }
    expect(problems).toEqual([]);
  });
});
