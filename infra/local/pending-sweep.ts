import { sweepExpiredUploads } from '../../shared/domain/media/sweep-expired-uploads.ts';
import { logger } from '../../shared/observability/logger.ts';

/** How often the local stack removes uploads never completed (the cloud does it by lifecycle rule and TTL). */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Starts the sweep (once now, then periodically); `stop()` ends it. A failed round is logged and retried later. */
export function startPendingSweep(intervalMs = SWEEP_INTERVAL_MS): { stop(): void } {
  const round = () => {
    sweepExpiredUploads().catch((error: unknown) => logger.warn('pending upload sweep failed', { error }));
  };
  const first = setTimeout(round, 1_000);
  const timer = setInterval(round, intervalMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
