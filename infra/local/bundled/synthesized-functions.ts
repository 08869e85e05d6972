import { join } from 'node:path';
import { type CloudAssembly, resourcesOfType, type SynthesizedStack } from './assembly.ts';
import type { Resolver } from './resolve-intrinsics.ts';

/** A Lambda function as its template defines it, with every reference resolved to the local resources. */
export interface SynthesizedFunction {
  /** The physical function name (`community-dev-listFeeds`). */
  readonly name: string;
  readonly stack: SynthesizedStack;
  readonly logicalId: string;
  /** The bundled asset folder `cdk synth` wrote for it. */
  readonly codeDir: string;
  /** `file.export`, e.g. `index.handler`. */
  readonly handler: string;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  readonly reservedConcurrency: number | undefined;
  /** Exactly the template's variables, resolved. */
  readonly environment: Readonly<Record<string, string>>;
  /** The role's ARN (its policies: iam-policies.ts). */
  readonly roleArn: string;
  readonly roleLogicalId: string;
}

export interface SynthesizedRoute {
  /** `GET /v2/feeds/{feed_id}` or `$default`. */
  readonly routeKey: string;
  readonly function: SynthesizedFunction;
  /** The authorizer function when the route has a Lambda authorizer (`CUSTOM`), else undefined. */
  readonly authorizer: SynthesizedFunction | undefined;
}

export interface SynthesizedEventSource {
  /** The queue's ARN. */
  readonly queueArn: string;
  readonly function: SynthesizedFunction;
  readonly batchSize: number;
  readonly maxConcurrency: number | undefined;
}

const LAMBDA_DEFAULTS = { memoryMb: 128, timeoutSeconds: 3 };

export function synthesizedFunctions(assembly: CloudAssembly, resolver: Resolver): SynthesizedFunction[] {
  return resourcesOfType(assembly, 'AWS::Lambda::Function').map(({ stack, logicalId, resource }) => {
    const props = resource.Properties ?? {};
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') {
      throw new Error(`${stack.name}/${logicalId} has no bundled asset (synthesized with -c bundle=false?)`);
    }
    const variables = (props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    const environment = Object.fromEntries(
      Object.entries(variables ?? {}).map(([name, value]) => [
        name,
        // TLS is not emulated on this machine: an https URL that resolves to loopback is served over http.
        resolver.resolveString(stack, value).replace(/^https:\/\/127\.0\.0\.1([:/]|$)/, 'http://127.0.0.1$1'),
      ]),
    );
    const role = (props.Role as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    if (!role) throw new Error(`${stack.name}/${logicalId}: its role is not a role of its own stack`);
    return {
      name: resolver.resolveString(stack, props.FunctionName),
      stack,
      logicalId,
      codeDir: join(assembly.dir, assetPath),
      handler: String(props.Handler ?? 'index.handler'),
      memoryMb: Number(props.MemorySize ?? LAMBDA_DEFAULTS.memoryMb),
      timeoutSeconds: Number(props.Timeout ?? LAMBDA_DEFAULTS.timeoutSeconds),
      reservedConcurrency:
        props.ReservedConcurrentExecutions === undefined
          ? undefined
          : Number(props.ReservedConcurrentExecutions),
      environment,
      roleArn: resolver.resolveString(stack, props.Role),
      roleLogicalId: role,
    };
  });
}

/** The function a Lambda ARN (or an API Gateway invocation URI holding one) names. */
function functionOf(functions: readonly SynthesizedFunction[], arnOrUri: string): SynthesizedFunction {
  const name = arnOrUri.match(/:function:([^/:]+)/)?.[1];
  const found = functions.find((fn) => fn.name === name);
  if (!found) throw new Error(`no synthesized function for ${arnOrUri}`);
  return found;
}

/** The HTTP API's routes, their integrations and authorizers, as API Gateway would run them. */
export function synthesizedRoutes(
  assembly: CloudAssembly,
  resolver: Resolver,
  functions: readonly SynthesizedFunction[],
): SynthesizedRoute[] {
  const authorizers = new Map(
    resourcesOfType(assembly, 'AWS::ApiGatewayV2::Authorizer').map(({ stack, logicalId, resource }) => {
      if (resource.Properties?.AuthorizerType !== 'REQUEST') {
        throw new Error(`${logicalId}: only Lambda (REQUEST) authorizers run locally`);
      }
      const uri = resolver.resolveString(stack, resource.Properties?.AuthorizerUri);
      return [resolver.resolveString(stack, { Ref: logicalId }), functionOf(functions, uri)] as const;
    }),
  );
  return resourcesOfType(assembly, 'AWS::ApiGatewayV2::Route').flatMap(({ stack, resource }) => {
    const props = resource.Properties ?? {};
    // The live WebSocket API's routes are the local live gateway's (infra/local/live-gateway.ts), not HTTP routes.
    const apiRef = (props.ApiId as { Ref?: unknown } | undefined)?.Ref;
    if (typeof apiRef === 'string' && stack.resources[apiRef]?.Properties?.ProtocolType === 'WEBSOCKET')
      return [];
    const target = resolver.resolveString(stack, props.Target);
    const integrationId = target.replace(/^integrations\//, '');
    const integration = stack.resources[integrationId];
    if (integration?.Type !== 'AWS::ApiGatewayV2::Integration') {
      throw new Error(
        `${stack.name}: route ${String(props.RouteKey)} targets ${target}, not an integration here`,
      );
    }
    const uri = resolver.resolveString(stack, integration.Properties?.IntegrationUri);
    const authorized = props.AuthorizationType === 'CUSTOM';
    const authorizerId = authorized ? resolver.resolveString(stack, props.AuthorizerId) : undefined;
    const authorizer = authorizerId === undefined ? undefined : authorizers.get(authorizerId);
    if (authorized && !authorizer) throw new Error(`route ${String(props.RouteKey)}: unknown authorizer`);
    return [{ routeKey: String(props.RouteKey), function: functionOf(functions, uri), authorizer }];
  });
}

/** The SQS event source mappings: which function consumes which queue, in what batches, how many at once. */
export function synthesizedEventSources(
  assembly: CloudAssembly,
  resolver: Resolver,
  functions: readonly SynthesizedFunction[],
): SynthesizedEventSource[] {
  return resourcesOfType(assembly, 'AWS::Lambda::EventSourceMapping').map(({ stack, resource }) => {
    const props = resource.Properties ?? {};
    const name = resolver.resolveString(stack, props.FunctionName);
    const fn = functions.find((candidate) => candidate.name === name);
    if (!fn) throw new Error(`event source mapping for unknown function ${name}`);
    const scaling = props.ScalingConfig as { MaximumConcurrency?: number } | undefined;
    return {
      queueArn: resolver.resolveString(stack, props.EventSourceArn),
      function: fn,
      batchSize: Number(props.BatchSize ?? 10),
      maxConcurrency: scaling?.MaximumConcurrency,
    };
  });
}
