import { InvocationScoped } from '@aws-lambda-powertools/commons/utils/invocation-scoped';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { onInvocationEnd } from './invocation.ts';
import './invoke-store.ts';

/**
 * Business metrics as CloudWatch embedded metric format (EMF) lines, through Powertools Metrics. Domain code
 * counts (`businessMetrics.mailSent()`); the counts are published once per invocation, at its end
 * (`publishInvocationMetrics`, which this module registers with shared/observability/invocation.ts when it is
 * loaded, so only the functions whose code counts carry Powertools Metrics), under the namespace
 * `CommunityApi` with the function as the `service` dimension.
 *
 * - `NotificationsEmitted` (Count), dimensions service + type: one EMF line per notification type emitted.
 * - `MailSent`, `MailFailed` (Count), dimension service.
 * - Live channel (dimension service): `LiveConnects`, `LiveDisconnects` (open connections = their running
 *   difference), `LiveSends`, `LiveSendsGone` (stale connections removed), `LiveSendsFailed` (Count).
 *
 * Counts are per invocation (Powertools' invocation store), so concurrent invocations in one process never
 * publish each other's. Set `POWERTOOLS_METRICS_DISABLED=true` to print nothing (the local stack does unless
 * LOG_LEVEL is debug); the counting itself never fails a request.
 */
export const METRICS_NAMESPACE = 'CommunityApi';

interface Counts {
  readonly notificationsByType: Map<string, number>;
  mailSent: number;
  mailFailed: number;
  readonly live: Record<LiveCount, number>;
}

type LiveCount = 'LiveConnects' | 'LiveDisconnects' | 'LiveSends' | 'LiveSendsGone' | 'LiveSendsFailed';
const noLiveCounts = (): Record<LiveCount, number> => ({
  LiveConnects: 0,
  LiveDisconnects: 0,
  LiveSends: 0,
  LiveSendsGone: 0,
  LiveSendsFailed: 0,
});

const counts = new InvocationScoped<Counts>('community-api.metrics.counts', {
  fresh: () => ({ notificationsByType: new Map(), mailSent: 0, mailFailed: 0, live: noLiveCounts() }),
});

export const businessMetrics = {
  notificationEmitted(type: string): void {
    const byType = counts.get().notificationsByType;
    byType.set(type, (byType.get(type) ?? 0) + 1);
  },
  mailSent(): void {
    counts.get().mailSent += 1;
  },
  mailFailed(): void {
    counts.get().mailFailed += 1;
  },
  live(name: LiveCount, count = 1): void {
    counts.get().live[name] += count;
  },
};

const publishers = new Map<string, Metrics>();

/** One Metrics per function (service), made on first publish so it reads POWERTOOLS_METRICS_DISABLED then. */
function publisherFor(service: string): Metrics {
  let found = publishers.get(service);
  if (!found) {
    found = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: service });
    publishers.set(service, found);
  }
  return found;
}

/** Publishes and forgets this invocation's counts; nothing is printed when there are none. */
export function publishInvocationMetrics(service: string): void {
  const { notificationsByType, mailSent, mailFailed, live } = counts.get();
  counts.reset();
  const liveCounts = Object.entries(live).filter(([, count]) => count > 0);
  if (notificationsByType.size === 0 && mailSent === 0 && mailFailed === 0 && liveCounts.length === 0) return;
  const metrics = publisherFor(service);
  for (const [name, count] of liveCounts) metrics.addMetric(name, MetricUnit.Count, count);
  if (mailSent > 0) metrics.addMetric('MailSent', MetricUnit.Count, mailSent);
  if (mailFailed > 0) metrics.addMetric('MailFailed', MetricUnit.Count, mailFailed);
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  // A record has one value per dimension, so each type gets its own line.
  for (const [type, count] of notificationsByType) {
    metrics.addDimension('type', type);
    metrics.addMetric('NotificationsEmitted', MetricUnit.Count, count);
    metrics.publishStoredMetrics();
  }
}

onInvocationEnd(publishInvocationMetrics);
