import { type CloudAssembly, resourcesOfType } from './assembly.ts';
import type { Resolver } from './resolve-intrinsics.ts';
import type { SynthesizedFunction } from './synthesized-functions.ts';

export interface PolicyDocument {
  readonly Version?: string;
  readonly Statement: readonly Record<string, unknown>[];
}

/** The policies a request is evaluated against, from the synthesized templates, references resolved. */
export interface SynthesizedPolicies {
  /** A role's identity policies: its `AWS::IAM::Policy` resources and inline `Policies`. */
  identityPolicies(fn: SynthesizedFunction): readonly { name: string; policy: PolicyDocument }[];
  /** The resource policy governing an ARN (an SQS queue policy, an S3 bucket policy), if any. */
  resourcePolicy(arn: string): PolicyDocument | undefined;
}

export function synthesizedPolicies(assembly: CloudAssembly, resolver: Resolver): SynthesizedPolicies {
  const byRole = new Map<string, { name: string; policy: PolicyDocument }[]>();
  const add = (stackName: string, roleId: string, name: string, policy: PolicyDocument) => {
    const key = `${stackName}/${roleId}`;
    byRole.set(key, [...(byRole.get(key) ?? []), { name, policy }]);
  };
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::IAM::Policy')) {
    const document = resolver.resolve(stack, resource.Properties?.PolicyDocument) as PolicyDocument;
    for (const role of (resource.Properties?.Roles as { Ref?: string }[] | undefined) ?? []) {
      if (role.Ref) add(stack.name, role.Ref, logicalId, document);
    }
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::IAM::Role')) {
    if (resource.Properties?.ManagedPolicyArns) {
      throw new Error(`${stack.name}/${logicalId}: managed policies cannot be evaluated locally`);
    }
    const inline = (resource.Properties?.Policies as { PolicyName: string; PolicyDocument: unknown }[]) ?? [];
    for (const policy of inline) {
      add(
        stack.name,
        logicalId,
        policy.PolicyName,
        resolver.resolve(stack, policy.PolicyDocument) as PolicyDocument,
      );
    }
  }

  // Resource policies by the ARN of what they govern; an S3 bucket policy governs the bucket and its objects.
  const byArn = new Map<string, PolicyDocument>();
  for (const { stack, resource } of resourcesOfType(assembly, 'AWS::SQS::QueuePolicy')) {
    const document = resolver.resolve(stack, resource.Properties?.PolicyDocument) as PolicyDocument;
    for (const queue of (resource.Properties?.Queues as unknown[]) ?? []) {
      // The policy names its queue by URL; its statements carry the ARN.
      const url = resolver.resolveString(stack, queue);
      const arn = document.Statement.flatMap((s) => s.Resource).find(
        (r): r is string => typeof r === 'string' && r.endsWith(`:${url.split('/').pop()}`),
      );
      if (arn) byArn.set(arn, document);
    }
  }
  for (const { stack, resource } of resourcesOfType(assembly, 'AWS::S3::BucketPolicy')) {
    const bucket = resolver.resolveString(stack, resource.Properties?.Bucket);
    byArn.set(
      `arn:aws:s3:::${bucket}`,
      resolver.resolve(stack, resource.Properties?.PolicyDocument) as PolicyDocument,
    );
  }

  return {
    identityPolicies: (fn) => byRole.get(`${fn.stack.name}/${fn.roleLogicalId}`) ?? [],
    resourcePolicy(arn) {
      const s3 = arn.match(/^arn:aws:s3:::([^/]+)/);
      return byArn.get(s3 ? `arn:aws:s3:::${s3[1]}` : arn);
    },
  };
}
