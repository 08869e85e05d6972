import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { SynthesizedPolicies } from './iam-policies.ts';
import type { SynthesizedFunction } from './synthesized-functions.ts';

/** One authorization question: may this function do `action` on `resource`, with these context keys? */
export interface IamRequest {
  readonly action: string;
  readonly resource: string;
  readonly context?: Readonly<Record<string, string>>;
}

export type IamDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly explicit: boolean; readonly message: string };

/**
 * Evaluates requests against a function's synthesized IAM policy with @cloud-copilot/iam-simulate: its role's
 * identity policies, the resource policy of the target (queue, bucket), explicit denies winning, same-account rules.
 *
 * Context keys: `aws:SecureTransport` is `true` because the function's SDK talks TLS to AWS (locally the loopback hop
 * is plain HTTP; the bucket's and queues' TLS-only denies would otherwise refuse everything). The rest are what AWS
 * would set for a Lambda role's session. Decisions are cached: the same question always gets the same answer.
 */
export function createIamCheck(policies: SynthesizedPolicies, account: string, region: string) {
  const cache = new Map<string, Promise<IamDecision>>();

  async function evaluate(fn: SynthesizedFunction, request: IamRequest): Promise<IamDecision> {
    const resourcePolicy = policies.resourcePolicy(request.resource);
    const result = await runSimulation(
      {
        request: {
          principal: fn.roleArn,
          action: request.action,
          resource: { resource: request.resource, accountId: account },
          contextVariables: {
            'aws:SecureTransport': 'true',
            'aws:PrincipalArn': fn.roleArn,
            'aws:PrincipalAccount': account,
            'aws:RequestedRegion': region,
            ...request.context,
          },
        },
        identityPolicies: policies.identityPolicies(fn).map((policy) => ({ ...policy })),
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        ...(resourcePolicy ? { resourcePolicy } : {}),
      },
      {},
    );
    if (result.resultType === 'error') {
      throw new Error(`IAM simulation of ${request.action} failed: ${JSON.stringify(result.errors)}`);
    }
    if (result.overallResult === 'Allowed') return { allowed: true };
    const explicit = result.overallResult === 'ExplicitlyDenied';
    const session = `arn:aws:sts::${account}:assumed-role/${fn.roleArn.split('/').pop()}/${fn.name}`;
    return {
      allowed: false,
      explicit,
      message:
        `User: ${session} is not authorized to perform: ${request.action} on resource: ${request.resource} ` +
        (explicit
          ? 'with an explicit deny in an identity-based policy'
          : `because no identity-based policy allows the ${request.action} action`),
    };
  }

  return {
    check(fn: SynthesizedFunction, request: IamRequest): Promise<IamDecision> {
      const key = JSON.stringify([fn.name, request.action, request.resource, request.context ?? {}]);
      let decision = cache.get(key);
      if (!decision) {
        // Object keys make questions unbounded; a long-running stack forgets them all now and then.
        if (cache.size > 50_000) cache.clear();
        decision = evaluate(fn, request);
        cache.set(key, decision);
        decision.catch(() => cache.delete(key));
      }
      return decision;
    },
  };
}

export type IamCheck = ReturnType<typeof createIamCheck>;
