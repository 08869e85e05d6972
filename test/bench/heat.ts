/**
 * Partition heat (`npm run bench -- heat`, issue 20): a community seeded through the import and the API, then a
 * realistic mix of reads and writes (support/heat-mix.ts; percentages in the help) through the local
 * gateway at 16 requests in flight. Every DynamoDB read and write of this process (handlers and the in-process
 * workers) is charged to its partition, of the table or of each index, by DynamoDB's rules (support/heat-units.ts).
 *
 * Printed per community size: the 15 hottest partitions for writes and for reads, each with its share of all units,
 * its units per request of the mix and the ceiling it sets (1 000 WCU/s, or 3 000 RCU/s, ÷ its units per request:
 * requests/s of the mix before that partition throttles); the overall ceilings (the lowest); units per request;
 * answers that were not 2xx; transactions cancelled; and every written partition whose key carries no digit (no
 * member, space, post, topic or course id: the seed gives every name digits), `!` in the tables. Shards of a
 * sharded counter (`…#S<n>`, or `…#R<r>#S<n>` in one of its replicas) and the shards of the sharded index lists
 * (the timeline's `GSI3 FEEDS#<n>`, the unpublished lists' `GSI3 FEEDS#<STATUS>#<n>`) are marked `~`: spread, but
 * shared by every writer of that counter or list.
 */
import { postTimelineShards, unpublishedPostsShards } from '../../shared/db/keys/feeds.ts';
import { startBenchStack } from './support/bench-stack.ts';
import { type Community, seedCommunity } from './support/heat-community.ts';
import { drawRequest, type Known, newPost, type Request } from './support/heat-mix.ts';
import { startHeatMeter } from './support/heat-meter.ts';

const args = process.argv.slice(2);
const option = (name: string): number | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : undefined;
};
const IN_FLIGHT = 16;
const requests = option('requests') ?? 1200;
const sizes =
  option('members') !== undefined
    ? [
        {
          members: option('members') as number,
          spaces: option('spaces') ?? Math.round((option('members') as number) / 6),
        },
      ]
    : [
        { members: 100, spaces: option('spaces') ?? 17 },
        { members: 400, spaces: option('spaces') ?? 67 },
      ];

/**
 * The shards of the sharded index lists (the timeline and the unpublished-feed lists), named as the meter names
 * partitions (`<index> <value>`): their digit is a shard number, not an id, so the digit rule below would miss them.
 */
const indexShards = new Set(
  [...postTimelineShards(), ...['draft', 'pending', 'scheduled'].flatMap(unpublishedPostsShards)].map(
    (partition) => `${partition.index} ${partition.value}`,
  ),
);

for (const size of sizes) await measure(size);

async function measure(size: { members: number; spaces: number }): Promise<void> {
  const run = Date.now().toString(36);
  const stack = await startBenchStack(`heat${run}`);
  const meter = startHeatMeter(
    stack.endpoints.dynamodb,
    stack.environment.AWS_REGION ?? 'us-east-1',
    stack.provisioned.tableName,
  );
  try {
    const started = Date.now();
    const community = await seedCommunity(run, size);
    const known: Known = { feeds: [], attempts: [] };
    // Warm-up, not measured: a post per two members, so every list has a page to show.
    await inFlight(Math.ceil(size.members / 2), () => newPost(community), community, known, new Map());
    process.stdout.write(
      `\n== ${size.members} members, ${size.spaces} spaces, ${community.topics.length} topics, ${community.courses.length} courses ` +
        `(seeded in ${((Date.now() - started) / 1000).toFixed(0)} s); ${requests} requests of the mix, ${IN_FLIGHT} in flight\n`,
    );
    meter.reset();
    meter.record(true);
    const statuses = new Map<string, number>();
    const began = Date.now();
    await inFlight(requests, () => drawRequest(community, known), community, known, statuses);
    // Notifications and other queued work land within a moment: let the workers finish before the tally closes.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    meter.record(false);
    report(meter.tally, statuses, (Date.now() - began) / 1000);
  } finally {
    meter.stop();
    await stack.stop();
  }

  async function inFlight(
    count: number,
    draw: () => Request,
    _community: Community,
    known: Known,
    statuses: Map<string, number>,
  ): Promise<void> {
    let issued = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (issued < count) {
          issued++;
          const request = known.feeds.length === 0 ? newPost(_community) : draw();
          const response = await fetch(`${stack.apiUrl}${request.path}`, {
            method: request.method,
            headers: {
              authorization: request.as.authorization,
              ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
          });
          const text = await response.text();
          const key = `${request.name} ${response.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (request.name === 'POST /feeds' && response.status === 201)
            known.feeds.push(JSON.parse(text).feed.id);
          if (request.name === 'POST …/quiz/submit' && response.ok)
            known.attempts.push({ path: request.path.replace(/\/quiz\/submit$/, ''), as: request.as });
        }
      }),
    );
  }
}

function report(
  tally: ReturnType<typeof startHeatMeter>['tally'],
  statuses: Map<string, number>,
  seconds: number,
): void {
  const failed = [...statuses].filter(([key]) => !/ 2\d\d$/.test(key));
  const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
  process.stdout.write(
    `${total} requests in ${seconds.toFixed(1)} s; non-2xx: ${failed.reduce((sum, [, n]) => sum + n, 0)}` +
      `${failed.length ? ` (${failed.map(([key, n]) => `${key} ×${n}`).join(', ')})` : ''}; ` +
      `transactions ${tally.transactions}, cancelled ${tally.cancelledTransactions}\n`,
  );
  const shared = [...tally.writes.keys()].filter((name) => marker(name) !== ' ');
  for (const [kind, units, capacity] of [
    ['write', tally.writes, 1000],
    ['read', tally.reads, 3000],
  ] as const) {
    const sum = [...units.values()].reduce((a, b) => a + b, 0);
    const rows = [...units].sort(([, a], [, b]) => b - a).slice(0, 15);
    const top = rows[0]?.[1] ?? 0;
    process.stdout.write(
      `${kind} units: ${sum.toFixed(0)} in all, ${(sum / total).toFixed(2)} per request; ${kind} ceiling ` +
        `${top ? Math.round(capacity / (top / total)).toLocaleString('en') : '∞'} requests/s of the mix\n`,
    );
    console.table(
      rows.map(([name, n]) => ({
        partition: `${kind === 'write' ? marker(name) : ' '} ${name.slice(0, 70)}`,
        units: Number(n.toFixed(1)),
        share: `${((100 * n) / sum).toFixed(2)} %`,
        'per request': Number((n / total).toFixed(4)),
        'ceiling req/s': Math.round(capacity / (n / total)),
      })),
    );
  }
  process.stdout.write(
    shared.length
      ? `written partitions with no member/space/post/topic/course id (! shared, ~ shard of a shared counter):\n${shared
          .map((name) => `  ${marker(name)} ${name}: ${(tally.writes.get(name) ?? 0).toFixed(0)} units`)
          .join('\n')}\n`
      : 'no written partition lacks a member/space/post/topic/course id\n',
  );
}

/** `!` a key naming no entity (no digit), `~` the shard of such a key, blank otherwise. */
function marker(name: string): string {
  if (indexShards.has(name)) return '~';
  // A `#0` segment is no id (a root topic's parent 0): every root topic's entry shares that partition.
  const key = name.slice(name.indexOf(' ') + 1).replace(/#0(?=#|$)/g, '');
  if (!/\d/.test(key)) return '!';
  // A shard, or a shard of one replica (`…#R<r>#S<n>`), of a counter no entity names.
  const shard = /(#R\d+)?#S\d+$/;
  if (shard.test(key) && !/\d/.test(key.replace(shard, ''))) return '~';
  return ' ';
}
