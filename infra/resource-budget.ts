import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type {
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
  PolicyViolation,
} from 'aws-cdk-lib';

/** CloudFormation's limit of resources in one stack. */
export const CLOUDFORMATION_RESOURCE_LIMIT = 500;
/**
 * The most resources a stack of this app may have: 60 % of the limit, so every stack keeps room to grow (a route
 * is about seven resources) and no deploy is the one that hits the wall.
 */
export const STACK_RESOURCE_BUDGET = Math.floor(CLOUDFORMATION_RESOURCE_LIMIT * 0.6);

/** Resource count of each synthesized template, by template file name. */
export function resourceCounts(templatePaths: readonly string[]): Map<string, number> {
  return new Map(
    templatePaths.map((path) => {
      const template = JSON.parse(readFileSync(path, 'utf8')) as { Resources?: object };
      return [basename(path), Object.keys(template.Resources ?? {}).length] as const;
    }),
  );
}

/**
 * A policy-validation plugin (run by `cdk synth` after synthesis, like cdk-nag): fails the synth when any stack
 * has more than `STACK_RESOURCE_BUDGET` resources, naming the stack and its count. The remedy is a new catalogue
 * domain (shared/catalogue/index.ts `ROUTE_DOMAINS`), which gets a stack of its own.
 */
export class ResourceBudget implements IPolicyValidationPlugin {
  readonly name = 'ResourceBudget';

  private readonly budget: number;

  constructor(budget = STACK_RESOURCE_BUDGET) {
    this.budget = budget;
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const violations: PolicyViolation[] = [];
    for (const [template, count] of resourceCounts(context.templatePaths)) {
      if (count <= this.budget) continue;
      violations.push({
        ruleName: 'stack-resource-budget',
        description: `${template} has ${count} resources, above the budget of ${this.budget} (60 % of CloudFormation's ${CLOUDFORMATION_RESOURCE_LIMIT})`,
        fix: 'Split the largest catalogue domain in two (ROUTE_DOMAINS in shared/catalogue/index.ts).',
        severity: 'error',
        violatingResources: [{ resourceLogicalId: '*', templatePath: template, locations: [] }],
      });
    }
    return { success: violations.length === 0, violations };
  }
}
