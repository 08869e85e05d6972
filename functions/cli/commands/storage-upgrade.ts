import { upgradeFeedStorage } from '../../../shared/domain/feeds/index.ts';
import { upgradeQuizListCopies } from '../../../shared/domain/quizzes/index.ts';
import { removeTopicPostCountShards, upgradeTopicReadCopies } from '../../../shared/domain/topics/index.ts';
import { upgradeUserSearchEntries } from '../../../shared/domain/users/index.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/**
 * `storage:upgrade [--dry-run]`: brings a stage written by any earlier storage layout to the current one (README,
 * "Upgrading a stage's storage") and prints what it did per kind; `up_to_date` is true when nothing needed a write
 * (a second run). `changed_meanwhile` counts writes a concurrent request made stale: nothing was overwritten, and
 * the command exits 1 so the operator runs it again (with feed writes paused).
 */
export async function storageUpgradeCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['dry-run']);
  if (args.positionals.length > 0) throw new CliError('Usage: storage:upgrade [--dry-run]');
  const dryRun = args.options.get('dry-run') === 'yes';
  const feeds = await upgradeFeedStorage({ dryRun });
  const topicPostCountShards = await removeTopicPostCountShards({ dryRun });
  const quizListCopies = await upgradeQuizListCopies({ dryRun });
  const userSearchEntries = await upgradeUserSearchEntries({ dryRun });
  const topicReadCopies = await upgradeTopicReadCopies({ dryRun });
  const report = {
    ...feeds,
    topic_post_counts: topicPostCountShards,
    quiz_list_copies: quizListCopies,
    user_search_entries: userSearchEntries,
    topic_read_copies: topicReadCopies,
  };
  const kinds = [
    feeds.timeline_totals,
    feeds.status_totals,
    feeds.space_post_counts,
    topicPostCountShards,
    quizListCopies,
    userSearchEntries,
    topicReadCopies,
  ];
  const written = feeds.feed_listings.upgraded + kinds.reduce((sum, kind) => sum + kind.items_written, 0);
  const stale =
    feeds.feed_listings.changed_meanwhile + kinds.reduce((sum, kind) => sum + kind.changed_meanwhile, 0);
  if (stale > 0)
    throw new CliError(
      `${JSON.stringify(report)}\n${stale} writes found their items changed by requests meanwhile and were not ` +
        'made: pause feed writes (and quiz gradings, profile and status changes) and run storage:upgrade again.',
    );
  return { dry_run: dryRun, up_to_date: written === 0, ...report };
}
