import { LOCAL_BINDING_KEY } from '../../local-binding.ts';
import type { LocalAttribute, Pseudo } from './resolve-intrinsics.ts';

/** The local resources the synthesized references resolve to. */
export interface LocalResources extends Pseudo {
  readonly tableName: string;
  readonly bucketName: string;
  /** By catalogue queue name: the work queue and its dead-letter queue. */
  readonly queues: ReadonlyMap<string, { readonly url: string; readonly arn: string }>;
  readonly deadLetterQueues: ReadonlyMap<string, { readonly url: string; readonly arn: string }>;
  /** `http://127.0.0.1:<port>`: the local gateway, which is the HTTP API's endpoint here. */
  readonly gatewayOrigin: string;
  /** `127.0.0.1:<port>`: the local stand-in of the media CDN, the distribution's domain name here. */
  readonly cdnHost: string;
}

/** The ARN a catalogued secret has locally (the AWS front answers GetSecretValue for it). */
export const localSecretArn = (pseudo: Pseudo, name: string): string =>
  `arn:aws:secretsmanager:${pseudo.region}:${pseudo.account}:secret:${name}-local`;

/** The name a role has locally: its stack and logical id, as CloudFormation names roles without a name. */
export const localRoleName = (stackName: string, logicalId: string): string =>
  `${stackName}-${logicalId}`.slice(0, 64);

/**
 * Local values of the stateful resources, found by the binding each carries in its template metadata
 * (infra/local-binding.ts), and of the few stateless ones functions refer to (the API's endpoint, functions, roles,
 * log groups). Anything else has no local meaning.
 */
export function localAttribute(local: LocalResources): LocalAttribute {
  const { region, account } = local;
  return (stack, logicalId, resource, attribute) => {
    const binding = resource.Metadata?.[LOCAL_BINDING_KEY];
    if (typeof binding === 'string') {
      const [kind, name = ''] = binding.split(':');
      switch (kind) {
        case 'table':
          return attribute === 'Ref'
            ? local.tableName
            : attribute === 'Arn'
              ? `arn:aws:dynamodb:${region}:${account}:table/${local.tableName}`
              : undefined;
        case 'bucket':
          return attribute === 'Ref'
            ? local.bucketName
            : attribute === 'Arn'
              ? `arn:aws:s3:::${local.bucketName}`
              : undefined;
        case 'queue':
        case 'dlq': {
          const queue = (kind === 'queue' ? local.queues : local.deadLetterQueues).get(name);
          if (!queue) throw new Error(`${binding} is synthesized but not provisioned locally`);
          if (attribute === 'Ref') return queue.url;
          if (attribute === 'Arn') return queue.arn;
          return attribute === 'QueueName' ? queue.arn.split(':').pop() : undefined;
        }
        case 'secret':
          return attribute === 'Ref' || attribute === 'Id' ? localSecretArn(local, name) : undefined;
        case 'mailIdentity':
          return attribute === 'Ref' ? String(resource.Properties?.EmailIdentity) : undefined;
        case 'cdn':
          return attribute === 'DomainName' ? local.cdnHost : attribute === 'Ref' ? 'LOCALCDN' : undefined;
        default:
          return undefined;
      }
    }
    const functionName = String(resource.Properties?.FunctionName ?? logicalId);
    switch (resource.Type) {
      case 'AWS::ApiGatewayV2::Api':
        return attribute === 'ApiEndpoint' ? local.gatewayOrigin : attribute === 'Ref' ? 'local' : undefined;
      case 'AWS::Lambda::Function':
        if (attribute === 'Ref') return functionName;
        return attribute === 'Arn'
          ? `arn:aws:lambda:${region}:${account}:function:${functionName}`
          : undefined;
      case 'AWS::IAM::Role': {
        const name = localRoleName(stack.name, logicalId);
        return attribute === 'Ref'
          ? name
          : attribute === 'Arn'
            ? `arn:aws:iam::${account}:role/${name}`
            : undefined;
      }
      case 'AWS::Logs::LogGroup':
        return attribute === 'Arn' ? `arn:aws:logs:${region}:${account}:log-group:${logicalId}:*` : undefined;
      default:
        return undefined;
    }
  };
}
