import { METER_HEADER } from '../../infra/local/dynamodb-meter.ts';
import type { ApiResponse } from './api.ts';

/**
 * What one request cost in DynamoDB calls after the authorizer, read from the in-process stack's meter (the
 * `x-local-dynamodb` header, infra/local/dynamodb-meter.ts): serial rounds, reads, writes and the calls in order.
 */
export interface MeteredFigures {
  readonly rounds: number;
  readonly reads: number;
  readonly writes: number;
  readonly calls: string;
}

export function meteredFigures(response: ApiResponse): MeteredFigures {
  const header = response.headers.get(METER_HEADER);
  if (!header) throw new Error(`no ${METER_HEADER} header (the meter runs in the in-process stack only)`);
  const parsed = JSON.parse(header) as Omit<MeteredFigures, 'calls'> & { calls: [string, string, string][] };
  return {
    rounds: parsed.rounds,
    reads: parsed.reads,
    writes: parsed.writes,
    calls: parsed.calls
      .map(([operation, index, keys]) => `${operation}${index ? `:${index}` : ''}(${keys})`)
      .join(' '),
  };
}
