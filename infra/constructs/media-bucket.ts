import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';

/** Key prefix of objects posted by browsers and not yet confirmed by the completion call. */
export const PENDING_PREFIX = 'pending/';
/** Key prefix of verified files everyone may see: the CDN serves them to whoever has the URL. */
export const SERVED_PREFIX = 'media/';
/**
 * Key prefix of files of private and secret spaces: with a signing key, the CDN serves them to signed URLs only
 * (its key group); without one, never (they are then fetched through presigned S3 GETs).
 */
export const PRIVATE_PREFIX = 'private/';
/**
 * How long the CDN may serve a file from its cache: a deleted file stops being served at most this long after the
 * delete (objects carry the same `max-age`, shared/integrations/media-bucket.ts).
 */
export const CDN_CACHE_SECONDS = 300;

/**
 * Viewer-request function: only verified files under `media/` are served. An upload still under `pending/` (not
 * yet checked, perhaps an executable) is never reachable through the CDN.
 */
const SERVED_ONLY = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('/${SERVED_PREFIX}') !== 0) return { statusCode: 404, statusDescription: 'Not Found' };
  return request;
}`;

export interface MediaBucketProps {
  /** Origins allowed to POST uploads straight to the bucket (presigned POST from the browser). */
  readonly corsOrigins: readonly string[];
  /**
   * Days after which unconfirmed uploads under `pending/` are deleted.
   * @default 1
   */
  readonly pendingExpirationDays?: number;
  /**
   * PEM public key that signs URLs of `private/` files (StageConfig.mediaSigningPublicKey). Undefined: no key
   * group, no signing secret, and the CDN never serves `private/`.
   */
  readonly signingPublicKey?: string | undefined;
}

/** The CDN's key for `private/` files: CloudFront's public key and the key group trusted for them. */
export interface MediaSigning {
  readonly publicKey: cloudfront.PublicKey;
  readonly keyGroup: cloudfront.KeyGroup;
}

/**
 * The media bucket and its access-log bucket. Private, S3-managed encryption, TLS only, RETAIN. Browsers upload
 * with presigned POSTs, so CORS allows POST from the stage's origins; uploads nobody confirmed expire by lifecycle.
 */
export class MediaBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  /** The CDN in front of the private bucket (origin access control): `file_url` and `thumbnail_url` point here. */
  readonly distribution: cloudfront.Distribution;
  /** Present when the stage has a signing key (props.signingPublicKey). */
  readonly signing: MediaSigning | undefined;
  /**
   * Holds the PEM private key of the signing key pair: a generated placeholder until operators put the key there
   * (README), so the template never holds a key. Made whether or not the stage has a public key yet, so the
   * private half can be stored before the public half is configured.
   */
  readonly signingSecret: secretsmanager.Secret;

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

    // Origin access control: the bucket stays private; its policy lets only this distribution read objects.
    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
      originAccessLevels: [cloudfront.AccessLevel.READ],
    });
    const serving = {
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      // No query string in the cache key: a signed URL's parameters do not split the cache.
      cachePolicy: new cloudfront.CachePolicy(this, 'CachePolicy', {
        comment: 'Media: short TTL so deletions take effect quickly',
        defaultTtl: Duration.seconds(CDN_CACHE_SECONDS),
        maxTtl: Duration.seconds(CDN_CACHE_SECONDS),
        minTtl: Duration.seconds(0),
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      }),
      // nosniff among them: a file is only ever rendered as the type it was verified to be.
      responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
    } satisfies cloudfront.AddBehaviorOptions;
    this.signing = props.signingPublicKey ? this.signingKey(props.signingPublicKey) : undefined;
    this.signingSecret = new secretsmanager.Secret(this, 'SigningPrivateKey', {
      description:
        "PEM private key of the media CDN's signing key pair (URLs of private and secret spaces' media); put there by operators.",
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.signingSecret,
      'AwsSolutions-SMG4',
      'A new key pair needs its public half in the stage configuration (the key group) as well; operators rotate both together.',
    );

    this.distribution = new cloudfront.Distribution(this, 'Cdn', {
      comment: 'Media files (verified uploads only)',
      defaultBehavior: {
        origin,
        ...serving,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'ServedOnly', {
              runtime: cloudfront.FunctionRuntime.JS_2_0,
              code: cloudfront.FunctionCode.fromInline(SERVED_ONLY),
            }),
          },
        ],
      },
      ...(this.signing
        ? {
            // Files of private and secret spaces: only to URLs signed by the key group's key (CloudFront answers
            // 403 to an unsigned, altered or expired URL before it reaches the bucket).
            additionalBehaviors: {
              [`${PRIVATE_PREFIX}*`]: { origin, ...serving, trustedKeyGroups: [this.signing.keyGroup] },
            },
          }
        : {}),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
    });
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'A community is used worldwide; no country is refused by product decision.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'Serves static files only (GET/HEAD of unguessable keys, verified at upload); no application logic for a WAF to protect. The API has its own protections.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR3',
      'Every cache miss reaches the bucket, whose server access logs record it; CloudFront standard logs would need ACLs re-enabled on the log bucket.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR4',
      'The default *.cloudfront.net certificate is used until the stage has a custom domain; CloudFront then negotiates TLS 1.2+ with modern clients, and viewers are redirected to HTTPS.',
    );
  }

  /** CloudFront's public key and the key group `private/*` trusts. */
  private signingKey(encodedKey: string): MediaSigning {
    const publicKey = new cloudfront.PublicKey(this, 'SigningPublicKey', {
      encodedKey,
      comment: 'Signs URLs of media of private and secret spaces (private/*)',
    });
    const keyGroup = new cloudfront.KeyGroup(this, 'SigningKeyGroup', {
      items: [publicKey],
      comment: 'Keys whose signed URLs the media CDN serves private/* to',
    });
    return { publicKey, keyGroup };
  }
}
