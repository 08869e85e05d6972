import type { CloudAssembly, SynthesizedStack, TemplateResource } from './assembly.ts';

/**
 * What a resource's `Ref` or `Fn::GetAtt` is on this machine: the local table's name for the table's `Ref`, the
 * local queue's ARN for its `Arn`, and so on (local-values.ts decides). Undefined = the resource has no local
 * meaning, and the reference resolves to a placeholder naming it.
 */
export type LocalAttribute = (
  stack: SynthesizedStack,
  logicalId: string,
  resource: TemplateResource,
  attribute: string | 'Ref',
) => string | undefined;

export interface Pseudo {
  readonly region: string;
  readonly account: string;
}

/**
 * Resolves CloudFormation intrinsics in a template value as CloudFormation would at deploy time, with local values
 * for resources: `Ref`, `Fn::GetAtt`, `Fn::ImportValue` (through the assembly's exports), `Fn::Join`, `Fn::Sub`,
 * `Fn::Select`, `Fn::Split`. Any other intrinsic fails loudly, so a template the local mode does not understand is
 * never half-resolved.
 */
export function createResolver(assembly: CloudAssembly, local: LocalAttribute, pseudo: Pseudo) {
  const pseudoValue = (stack: SynthesizedStack, name: string): string => {
    const values: Record<string, string> = {
      'AWS::Region': pseudo.region,
      'AWS::AccountId': pseudo.account,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': stack.name,
      'AWS::NoValue': '',
    };
    const value = values[name];
    if (value === undefined) throw new Error(`unsupported pseudo parameter ${name}`);
    return value;
  };

  const attribute = (stack: SynthesizedStack, logicalId: string, name: string | 'Ref'): string => {
    const resource = stack.resources[logicalId];
    if (!resource) throw new Error(`${stack.name}: no resource ${logicalId}`);
    return local(stack, logicalId, resource, name) ?? (name === 'Ref' ? logicalId : `${logicalId}.${name}`);
  };

  function resolve(stack: SynthesizedStack, value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => resolve(stack, item));
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const [key] = keys;
    if (keys.length !== 1 || !key || !(key === 'Ref' || key.startsWith('Fn::'))) {
      return Object.fromEntries(keys.map((name) => [name, resolve(stack, record[name])]));
    }
    const argument = record[key];
    switch (key) {
      case 'Ref': {
        const name = String(argument);
        return name.startsWith('AWS::') ? pseudoValue(stack, name) : attribute(stack, name, 'Ref');
      }
      case 'Fn::GetAtt': {
        const [logicalId, name] = Array.isArray(argument) ? argument : String(argument).split('.');
        return attribute(stack, String(logicalId), String(name));
      }
      case 'Fn::ImportValue': {
        const name = String(resolve(stack, argument));
        const exported = assembly.exports.get(name);
        if (!exported) throw new Error(`${stack.name} imports ${name}, which no stack exports`);
        return resolve(exported.stack, exported.value);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolve(stack, parts) as unknown[]).map(String).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        return (resolve(stack, list) as unknown[])[Number(resolve(stack, index))];
      }
      case 'Fn::Split': {
        const [separator, text] = argument as [string, unknown];
        return String(resolve(stack, text)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = Array.isArray(argument) ? argument : [argument, {}];
        const given = resolve(stack, variables) as Record<string, unknown>;
        return String(text).replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
          if (name in given) return String(given[name]);
          if (name.startsWith('AWS::')) return pseudoValue(stack, name);
          const [logicalId, attr] = name.split('.');
          return attribute(stack, String(logicalId), attr ?? 'Ref');
        });
      }
      default:
        throw new Error(`${stack.name}: intrinsic ${key} is not supported by the local bundled mode`);
    }
  }

  return {
    resolve,
    /** A value that must come out as a string (an environment variable, an ARN). */
    resolveString(stack: SynthesizedStack, value: unknown): string {
      const resolved = resolve(stack, value);
      if (typeof resolved !== 'string' && typeof resolved !== 'number') {
        throw new Error(`${stack.name}: ${JSON.stringify(value)} does not resolve to a string`);
      }
      return String(resolved);
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
