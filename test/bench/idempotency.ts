import { randomBytes } from 'node:crypto';
import { readMeter, writeMeter } from '../../shared/db/read-meter.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { startBenchStack } from './support/bench-stack.ts';

/**
 * What issue 24 costs and saves: a write with an `Idempotency-Key` against the same write without one (the extra
 * conditional put and update of the replay record), a replay (one conditional put that finds the record), and a
 * `GET /feeds` answered 304 against the same read answered 200. Units come from the DB client's meters (the local
 * gateway runs the handlers and the authorizer in this process, so every request's reads and writes are counted);
 * latencies are medians through the gateway over HTTP.
 */
const SAMPLES = 40;
const WARMUP = 5;
const FEEDS = 40;
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

interface Sample {
  ms: number;
  rcu: number;
  wcu: number;
  bytes: number;
  status: number;
}

async function measure(send: () => Promise<Response>): Promise<Sample> {
  readMeter.reset();
  writeMeter.reset();
  const started = performance.now();
  const response = await send();
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  return {
    ms,
    rcu: readMeter.total(),
    wcu: writeMeter.total(),
    bytes: body.byteLength,
    status: response.status,
  };
}

async function series(name: string, expected: number, send: (i: number) => Promise<Response>) {
  const samples: Sample[] = [];
  for (let i = 0; i < SAMPLES + WARMUP; i++) {
    const sample = await measure(() => send(i));
    if (sample.status !== expected)
      throw new Error(`${name}: answered ${sample.status}, expected ${expected}`);
    if (i >= WARMUP) samples.push(sample);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    case: name,
    'median ms': Number(median(samples.map((s) => s.ms)).toFixed(2)),
    'RCU / request': Number(mean(samples.map((s) => s.rcu)).toFixed(2)),
    'WCU / request': Number(mean(samples.map((s) => s.wcu)).toFixed(2)),
    'body bytes': Math.round(mean(samples.map((s) => s.bytes))),
  };
}

try {
  const user = await createUser({ login: `bench_${run}`, email: `bench_${run}@example.com` });
  const authorization = `Basic ${Buffer.from(`${user.username}:${user.app_password}`).toString('base64')}`;
  const post = (message: string, key?: string) =>
    fetch(`${stack.apiUrl}/feeds`, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify({ message }),
    });

  const rows = [];
  rows.push(await series('POST /feeds, no key', 201, (i) => post(`Plain ${run} ${i}`)));
  rows.push(
    await series('POST /feeds, new key', 201, (i) =>
      post(`Keyed ${run} ${i}`, randomBytes(12).toString('hex')),
    ),
  );
  const replayKey = randomBytes(12).toString('hex');
  await post(`Replayed ${run}`, replayKey);
  rows.push(await series('POST /feeds, replay', 201, () => post(`Replayed ${run}`, replayKey)));

  for (let i = 0; i < FEEDS; i++) await post(`Filler ${run} ${i}`);
  const list = (tag?: string) =>
    fetch(`${stack.apiUrl}/feeds?per_page=20`, {
      headers: { authorization, ...(tag ? { 'if-none-match': tag } : {}) },
    });
  const first = await list();
  const tag = first.headers.get('etag') ?? '';
  await first.arrayBuffer();
  rows.push(await series('GET /feeds (20 items), 200', 200, () => list()));
  rows.push(await series('GET /feeds (20 items), 304', 304, () => list(tag)));

  console.table(rows);
  const [plain, keyed, replay, full, notModified] = rows as [
    (typeof rows)[number],
    (typeof rows)[number],
    (typeof rows)[number],
    (typeof rows)[number],
    (typeof rows)[number],
  ];
  process.stdout.write(
    `Idempotency-Key on a write: +${(keyed['WCU / request'] - plain['WCU / request']).toFixed(2)} WCU, ` +
      `+${(keyed['RCU / request'] - plain['RCU / request']).toFixed(2)} RCU, ` +
      `+${(keyed['median ms'] - plain['median ms']).toFixed(2)} ms median; ` +
      `a replay costs ${replay['WCU / request']} WCU and ${replay['RCU / request']} RCU ` +
      `(the authorizer's reads included) in ${replay['median ms']} ms. DynamoDB Local reports no units for the ` +
      'failed conditional put of a replay; DynamoDB charges it (1 WCU per KB of the stored record).\n' +
      `GET /feeds 304 vs 200: ${notModified['body bytes']} vs ${full['body bytes']} body bytes, ` +
      `${notModified['median ms']} vs ${full['median ms']} ms median, ` +
      `${notModified['RCU / request']} vs ${full['RCU / request']} RCU (the tag is of the body, so it is built).\n`,
  );
} finally {
  await stack.stop();
}
