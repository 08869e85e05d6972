import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';

/** Key prefix of objects posted by browsers and not yet confirmed by the completion call. */
export const PENDING_PREFIX = 'pending/';

export interface MediaBucketProps {
  /** Origins allowed to POST uploads straight to the bucket (presigned POST from the browser). */
  readonly corsOrigins: readonly string[];
  /**
   * Days after which unconfirmed uploads under `pending/` are deleted.
   * @default 1
   */
  readonly pendingExpirationDays?: number;
}

/**
 * The media bucket and its access-log bucket. Private, S3-managed encryption, TLS only, RETAIN. Browsers upload
 * with presigned POSTs, so CORS allows POST from the stage's origins; uploads nobody confirmed expire by lifecycle.
 */
export class MediaBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: MediaBucketProps) {
    super(scope, id);
    const secure = {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    } satisfies s3.BucketProps;

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      ...secure,
      // Logs are delivered through a bucket policy (APP_CONTEXT in config.ts), so ACLs stay disabled.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    acknowledge(
      this.accessLogs,
      'AwsSolutions-S1',
      'This is the access-log bucket itself; logging it into itself would loop.',
    );

    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...secure,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'media/',
      cors: [
        {
          allowedMethods: [s3.HttpMethods.POST],
          allowedOrigins: [...props.corsOrigins],
          allowedHeaders: ['*'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        {
          id: 'expire-pending-uploads',
          prefix: PENDING_PREFIX,
          expiration: Duration.days(props.pendingExpirationDays ?? 1),
        },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }
}
