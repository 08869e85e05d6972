import { type IPolicyValidationContext, type PolicyValidationPluginReport, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, type NagPackProps } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 acknowledges findings by exact id only (`AwsSolutions-IAM5[Resource::<…>/index/*]`), and the id of a
 * cross-stack resource contains its export name, which is only known after synthesis. So a construct registers
 * a PATTERN with a reason here; `ProjectChecks` matches the patterns against the findings of the synthesized
 * app and acknowledges each matching finding, with that reason, before the real check runs. Anything not
 * matched by a reasoned pattern stays an error and fails the synth.
 */
export interface PatternAcknowledgment {
  /** Tested against the finding id, e.g. `AwsSolutions-IAM5[Resource::*]`. */
  readonly pattern: RegExp;
  /** Why the finding is acceptable; required, it is the audit trail. */
  readonly reason: string;
}

const PATTERNS = new WeakMap<IConstruct, PatternAcknowledgment[]>();

/** Acknowledges every finding on `scope` or below whose id matches `pattern`. */
export function acknowledgePattern(scope: IConstruct, acknowledgment: PatternAcknowledgment): void {
  if (!acknowledgment.reason.trim()) throw new Error('A nag acknowledgment needs a reason');
  PATTERNS.set(scope, [...(PATTERNS.get(scope) ?? []), acknowledgment]);
}

/** Exact-id acknowledgment with a required reason (a thin wrapper so every call site states one). */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  if (!reason.trim()) throw new Error('A nag acknowledgment needs a reason');
  Validations.of(scope).acknowledge({ id, reason });
}

function findByPath(root: IConstruct, path: string): IConstruct | undefined {
  return root.node.findAll().find((construct) => construct.node.path === path);
}

function patternFor(construct: IConstruct, findingId: string): PatternAcknowledgment | undefined {
  for (let current: IConstruct | undefined = construct; current; current = current.node.scope) {
    const match = PATTERNS.get(current)?.find((ack) => ack.pattern.test(findingId));
    if (match) return match;
  }
  return undefined;
}

/** AwsSolutions checks plus the pattern acknowledgments above. */
export class ProjectChecks extends AwsSolutionsChecks {
  constructor(props?: NagPackProps) {
    super(undefined, props);
  }

  /** Turns matching findings into exact acknowledgments; call on a synthesized tree. */
  applyPatternAcknowledgments(root: IConstruct): void {
    const firstPass = new AwsSolutionsChecks().validateScope(root);
    for (const violation of firstPass.violations) {
      for (const resource of violation.violatingResources) {
        const construct = resource.constructPath ? findByPath(root, resource.constructPath) : undefined;
        const ack = construct && patternFor(construct, violation.ruleName);
        if (construct && ack)
          Validations.of(construct).acknowledge({ id: violation.ruleName, reason: ack.reason });
      }
    }
  }

  /** For tests: the report for a synthesized tree, after the pattern acknowledgments. */
  check(root: IConstruct): PolicyValidationPluginReport {
    this.applyPatternAcknowledgments(root);
    return this.validateScope(root);
  }

  override validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const root = (context as IPolicyValidationContext & { appConstruct?: IConstruct }).appConstruct;
    if (root) this.applyPatternAcknowledgments(root);
    return super.validate(context);
  }
}
