import { readMeter } from '../../../shared/db/read-meter.ts';

/**
 * A median-latency probe for one benchmark: `samples` GETs through the local gateway, after `warmup` calls that load
 * the function's modules and warm the connections (not counted). Any answer but 200 stops the benchmark.
 */
export function medianLatencyOf(options: { samples: number; warmup: number }) {
  return async function medianLatency(url: string, authorization: string): Promise<number> {
    const timings: number[] = [];
    for (let i = 0; i < options.samples + options.warmup; i++) {
      const started = performance.now();
      const response = await fetch(url, { headers: { authorization } });
      await response.text();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      if (i >= options.warmup) timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    return timings[Math.floor(timings.length / 2)] as number;
  };
}

/** The read units one call consumes, as the DB client's read meter counts them. */
export async function readUnits(call: () => Promise<unknown>): Promise<number> {
  readMeter.reset();
  await call();
  return readMeter.total();
}
