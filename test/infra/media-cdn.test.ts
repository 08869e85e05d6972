import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { nativeModuleHooks } from '#infra/constructs/native-modules.ts';
import { allFunctionSpecs } from '#infra/function-specs.ts';
import { resources, synthApp } from './synth-app.ts';

/** The media CDN (CloudFront + origin access control) and the native image library reaching only its functions. */
describe('media CDN and native modules', () => {
  const { templates } = synthApp('real', 'prod');

  it('serves the private bucket through CloudFront with origin access control, HTTPS only, verified files only', () => {
    templates.data.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    templates.data.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Origins: [Match.objectLike({ OriginAccessControlId: Match.anyValue() })],
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: ['GET', 'HEAD'],
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
      }),
    });
    const [fn] = Object.values(resources(templates.data, 'AWS::CloudFront::Function'));
    const code = (fn?.Properties as { FunctionCode?: string } | undefined)?.FunctionCode;
    expect(String(code)).toContain("'/media/'");
    // Issue 21 item 1: files of private and secret spaces (`private/`) and unverified uploads are never served.
    const viewerRequest = new Function(`${String(code)}; return handler;`)() as (event: unknown) => unknown;
    for (const uri of ['/private/5-abc/file.png', '/pending/5', '/x/../private/5-abc/file.png']) {
      expect(viewerRequest({ request: { uri } }), uri).toEqual({
        statusCode: 404,
        statusDescription: 'Not Found',
      });
    }
    expect(viewerRequest({ request: { uri: '/media/5-abc/file.png' } })).toEqual({
      uri: '/media/5-abc/file.png',
    });
    templates.data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      }),
    });
  });

  it('gives the CDN URL to the functions that store files, and the bucket to no reader', () => {
    const functions = Object.values(resources(templates.api, 'AWS::Lambda::Function'));
    type Env = { Environment?: { Variables?: Record<string, unknown> } } | undefined;
    const envOf = (name: string): Record<string, unknown> => {
      const found = functions.find((fn) => String(fn.Properties?.FunctionName).endsWith(name));
      return (found?.Properties as Env)?.Environment?.Variables ?? {};
    };
    expect(envOf('-uploadMedia').MEDIA_PUBLIC_BASE_URL).toBeDefined();
    expect(envOf('-completeMediaUpload').MEDIA_BUCKET).toBeDefined();
    // getMedia signs short-lived GET URLs of `private/` files (issue 21 item 1); a reader of no media has no bucket.
    expect(envOf('-getMedia').MEDIA_BUCKET).toBeDefined();
    expect(envOf('-getProfile').MEDIA_BUCKET).toBeUndefined();
  });

  it('installs sharp for linux-arm64 into the functions that re-encode images only', () => {
    const withNative = allFunctionSpecs()
      .filter((spec) => spec.nativeModules?.includes('sharp'))
      .map((spec) => spec.id)
      .sort();
    // Uploads, their completion, and the images worker copying BuddyPress avatars and covers (never the migrations
    // worker, which loads MySQL: both in one cold start were over 2 × the floor, issue 21 item 21).
    expect(withNative).toEqual(['completeMediaUpload', 'imagesWorker', 'uploadMedia']);
    const commands = nativeModuleHooks(['sharp'], process.cwd()).afterBundling('/in', '/out');
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(
      // The asset folder's own package.json comes first, so npm cannot climb to the repository and prune it.
      /^cd "\/out" && printf '\{"private":true\}\\n' > package\.json && npm install .*--os=linux --cpu=arm64 --libc=glibc sharp@\d+\.\d+\.\d+$/,
    );
  });
});
