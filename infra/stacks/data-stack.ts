import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  QUEUES,
  type QueueEntry,
  SCHEDULES,
  type ScheduleEntry,
  type SecretName,
} from '../../shared/catalogue/index.ts';
import type { StageConfig } from '../config.ts';
import { AppTable } from '../constructs/app-table.ts';
import type { GrantableResources } from '../constructs/api-function.ts';
import { MediaBucket } from '../constructs/media-bucket.ts';
import { ScheduleRules } from '../constructs/schedule-rules.ts';
import { WorkQueue } from '../constructs/work-queue.ts';
import { markForLocalBinding } from '../local-binding.ts';
import { acknowledge } from '../nag.ts';
import { deadLetterQueueName, queueName } from '../naming.ts';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
  /**
   * The queues to create.
   * @default QUEUES from shared/catalogue
   */
  readonly queues?: readonly QueueEntry[];
  /**
   * The recurring jobs to schedule.
   * @default SCHEDULES from shared/catalogue
   */
  readonly schedules?: readonly ScheduleEntry[];
}

/**
 * Shape of the BuddyPress source secret; operators fill in the values after the first deploy, and add an optional
 * `uploadsUrl` (`s3://bucket/prefix`, or a folder on a mounted file system) for avatars and covers. `uploadsUrl`
 * is not in the placeholder on purpose: a changed template makes CloudFormation generate the value anew, which
 * would wipe the credentials operators filled in.
 */
const BUDDYPRESS_PLACEHOLDER = { host: '', port: 3306, user: '', database: '', tablePrefix: 'wp_' };

/**
 * Everything stateful, deployed rarely and RETAINed: the table, the media bucket, the queues and DLQs, the SES
 * identity and the secrets. The stateless stacks reference these; nothing here references them back.
 */
export class DataStack extends Stack implements GrantableResources {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  /** `https://<distribution domain>`: where browsers fetch media (CloudFront with origin access control). */
  readonly mediaPublicBaseUrl: string;
  /** CloudFront's id of the key that signs URLs of `private/` files; undefined when the stage has none. */
  readonly mediaCdnKeyPairId: string | undefined;
  readonly workQueues: ReadonlyMap<string, WorkQueue>;
  readonly mailIdentity: ses.EmailIdentity;
  readonly mailIdentityArn: string;
  readonly secrets: Readonly<Record<SecretName, secretsmanager.ISecret>>;
  /** Not ours (operators own and sync it): only its name, from the stage's configuration. */
  readonly sourceUploadsBucket: string | undefined;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.sourceUploadsBucket = config.buddypressUploadsBucket;

    this.table = new AppTable(this, 'AppTable').table;
    const media = new MediaBucket(this, 'Media', {
      corsOrigins: config.corsOrigins,
      signingPublicKey: config.mediaSigningPublicKey,
    });
    this.bucket = media.bucket;
    this.mediaPublicBaseUrl = `https://${media.distribution.distributionDomainName}`;
    this.mediaCdnKeyPairId = media.signing?.publicKey.publicKeyId;

    const workQueues = new Map<string, WorkQueue>();
    for (const entry of props.queues ?? QUEUES) {
      workQueues.set(
        entry.name,
        new WorkQueue(this, `${entry.name}Queue`, {
          entry,
          queueName: queueName(config.stage, entry.name),
          deadLetterQueueName: deadLetterQueueName(config.stage, entry.name),
        }),
      );
    }
    this.workQueues = workQueues;
    const schedules = props.schedules ?? (props.queues ? [] : SCHEDULES);
    new ScheduleRules(this, 'Schedules', { schedules, queue: (name) => this.queue(name) });

    const [, domain] = config.mail.from.split('@');
    this.mailIdentity = new ses.EmailIdentity(this, 'MailIdentity', {
      identity:
        config.mail.identity === 'domain' && domain
          ? ses.Identity.domain(domain)
          : ses.Identity.email(config.mail.from),
    });
    const identity = this.mailIdentity;
    this.mailIdentityArn = identity.emailIdentityArn;

    const pepper = new secretsmanager.Secret(this, 'PasswordPepper', {
      description:
        'HMAC pepper for application-password and token hashes. Rotating it invalidates every stored hash.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const buddypress = new secretsmanager.Secret(this, 'BuddypressSource', {
      description: 'Connection to the BuddyPress MySQL source for migrations (JSON); filled in by operators.',
      // A generated password keeps the template free of any secret value; the rest is an empty shape.
      generateSecretString: {
        secretStringTemplate: JSON.stringify(BUDDYPRESS_PLACEHOLDER),
        generateStringKey: 'password',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const cursorKey = new secretsmanager.Secret(this, 'CursorKey', {
      description: 'Key that encrypts and authenticates the paging cursors in next_page_url links.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      cursorKey,
      'AwsSolutions-SMG4',
      'Rotating the cursor key only invalidates cursors in flight (clients get 400 and restart from page 1); rotate by hand if needed.',
    );
    acknowledge(
      pepper,
      'AwsSolutions-SMG4',
      'The pepper keys every stored password hash; automatic rotation would lock out every user.',
    );
    acknowledge(
      buddypress,
      'AwsSolutions-SMG4',
      'Credentials of an external BuddyPress database we do not administer; operators rotate them there.',
    );
    this.secrets = {
      passwordPepper: pepper,
      cursorKey,
      buddypressSource: buddypress,
      mediaSigningKey: media.signingSecret,
    };

    markForLocalBinding(this.table, 'table');
    markForLocalBinding(this.bucket, 'bucket');
    markForLocalBinding(media.distribution, 'cdn');
    markForLocalBinding(this.mailIdentity, 'mailIdentity');
    for (const [name, workQueue] of workQueues) {
      markForLocalBinding(workQueue.queue, `queue:${name}`);
      markForLocalBinding(workQueue.deadLetterQueue, `dlq:${name}`);
    }
    for (const [name, secret] of Object.entries(this.secrets)) markForLocalBinding(secret, `secret:${name}`);
  }

  /** A grant naming a queue that is not catalogued fails here, at synth, with the queue's name. */
  queue(name: string): sqs.IQueue {
    const found = this.workQueues.get(name);
    if (!found) throw new Error(`Queue "${name}" is granted but not catalogued in QUEUES`);
    return found.queue;
  }
}
