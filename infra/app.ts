import { App, Tags, Validations } from 'aws-cdk-lib';
import { summarizeBundling } from './bundling-progress.ts';
import { APP_CONTEXT, bundleFromContext, configFromContext, nativeTargetFromContext } from './config.ts';
import { APP_NAME } from './naming.ts';
import { ProjectChecks } from './nag.ts';
import { ResourceBudget } from './resource-budget.ts';
import { createStacks } from './stacks/create-stacks.ts';

// `-c stage=dev|prod` (default dev); `-c bundle=false` or CDK_BUNDLE=false for a template-only synth.
const app = new App({ context: { ...APP_CONTEXT } });
const tryGetContext = (key: string): unknown => app.node.tryGetContext(key);
const config = configFromContext(tryGetContext);

const bundling = summarizeBundling();
createStacks(app, config, {
  bundle: bundleFromContext(tryGetContext),
  nativeTarget: nativeTargetFromContext(tryGetContext),
});

Tags.of(app).add('app', APP_NAME);
Tags.of(app).add('stage', config.stage);

// cdk-nag 3 is a policy-validation plugin (its packs are no longer Aspects): registered on the app, it checks
// every stack after synthesis and fails `cdk synth` on any finding that is not acknowledged with a reason.
Validations.of(app).addPlugins(new ProjectChecks({ verbose: true }));
// Likewise, any stack above 60 % of CloudFormation's 500 resources fails the synth (infra/resource-budget.ts).
Validations.of(app).addPlugins(new ResourceBudget());

app.synth();
bundling.done();
