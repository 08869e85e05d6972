import WebSocket from 'ws';
import { readMeter, writeMeter } from '../../shared/db/read-meter.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { startBenchStack } from './support/bench-stack.ts';

/**
 * Issue 25: how soon a live event follows the request that caused it. A member's post gets 200 comments from
 * another member, one at a time; the member's socket records when each `notification` arrives. Latency is from
 * the moment the comment's answer is received to the event on the socket (negative: the event came first, as the
 * local stack announces inside the request). Also the units the announcement adds to the causing request: the
 * same comment with the recipient connected and not connected (the meters count every read and write of the
 * request, the authorizer's too, as the gateway runs them in this process).
 */
const EVENTS = 200;
const WARMUP = 10;
const COST_SAMPLES = 30;
const run = Date.now().toString(36);
const stack = await startBenchStack(run);

const member = async (name: string) => {
  const user = await createUser({ login: `${name}_${run}`, email: `${name}_${run}@example.com` });
  return `Basic ${Buffer.from(`${user.username}:${user.app_password}`).toString('base64')}`;
};
const [author, commenter] = [await member('author'), await member('commenter')];
const post = async (path: string, as: string, body: unknown) => {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: as, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, { id: number }>;
};
const feedId = (await post('/feeds', author, { message: 'Benchmark post' })).feed?.id;
const comment = (index: number) =>
  post(`/feeds/${feedId}/comments`, commenter, { message: `Comment ${index}` });

async function commentCost(): Promise<{ rcu: number; wcu: number }> {
  let rcu = 0;
  let wcu = 0;
  for (let index = 0; index < COST_SAMPLES; index++) {
    readMeter.reset();
    writeMeter.reset();
    await comment(index);
    rcu += readMeter.total();
    wcu += writeMeter.total();
  }
  return { rcu: rcu / COST_SAMPLES, wcu: wcu / COST_SAMPLES };
}

const offline = await commentCost();

const socket = new WebSocket(stack.liveUrl, { headers: { authorization: author } });
await new Promise<void>((done, fail) => {
  socket.once('open', () => done());
  socket.once('error', fail);
});
const arrivals: number[] = [];
let wake: (() => void) | undefined;
socket.on('message', (data) => {
  if ((JSON.parse(String(data)) as { type: string }).type !== 'notification') return;
  arrivals.push(performance.now());
  wake?.();
});
const online = await commentCost();
const waitFor = (count: number) =>
  new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`event ${count} never arrived`)), 5_000);
    const check = () => {
      if (arrivals.length < count) return;
      clearTimeout(timer);
      wake = undefined;
      done();
    };
    wake = check;
    check();
  });
await waitFor(COST_SAMPLES);

const latencies: number[] = [];
const fromStart: number[] = [];
for (let index = 0; index < WARMUP + EVENTS; index++) {
  const seen = arrivals.length;
  const started = performance.now();
  await comment(index);
  const answered = performance.now();
  await waitFor(seen + 1);
  const arrived = arrivals[seen] ?? Number.NaN;
  if (index >= WARMUP) {
    latencies.push(arrived - answered);
    fromStart.push(arrived - started);
  }
}
socket.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
process.stdout.write(
  [
    `live events: ${EVENTS} comments, each announced to the post author's one open socket (after ${WARMUP} warm-up)`,
    `  answer → event on the socket: median ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))}`,
    `  request sent → event:         median ${ms(percentile(fromStart, 50))}, p95 ${ms(percentile(fromStart, 95))}, p99 ${ms(percentile(fromStart, 99))}`,
    `  units of POST /feeds/{id}/comments (mean of ${COST_SAMPLES}): recipient offline ${offline.rcu.toFixed(1)} RCU / ${offline.wcu.toFixed(1)} WCU, connected ${online.rcu.toFixed(1)} RCU / ${online.wcu.toFixed(1)} WCU`,
    `  so the live announcement costs ${(online.rcu - offline.rcu).toFixed(1)} RCU and ${(online.wcu - offline.wcu).toFixed(1)} WCU per event with a connection`,
  ].join('\n') + '\n',
);
await stack.stop();
