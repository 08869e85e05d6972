import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The deploy workflow's promises (.github/workflows/deploy.yml), read as text: it deploys the assemblies its checks
 * ran on, never a new synth; the prod approval comes after dev's smoke suite; actions are pinned by commit SHA;
 * every job has a timeout. actionlint and cfn-lint run in the workflow itself.
 */
const WORKFLOW = readFileSync(resolve(import.meta.dirname, '../../.github/workflows/deploy.yml'), 'utf8');

/** Job name → its lines (jobs are the two-space-indented keys under `jobs:`). */
function jobs(): Map<string, string> {
  const body = WORKFLOW.slice(WORKFLOW.indexOf('\njobs:\n') + 7);
  const found = new Map<string, string>();
  for (const part of body.split(/\n(?= {2}[a-z][\w-]*:\n)/)) {
    const name = part.match(/^ {2}([a-z][\w-]*):/)?.[1];
    if (name) found.set(name, part);
  }
  return found;
}

describe('deploy workflow', () => {
  const all = jobs();

  it('has the lint, test, synth, deploy-dev, smoke-dev and deploy-prod jobs, each with a timeout', () => {
    expect([...all.keys()]).toEqual(['lint', 'test', 'synth', 'deploy-dev', 'smoke-dev', 'deploy-prod']);
    for (const [name, job] of all) expect(job, name).toMatch(/\n {4}timeout-minutes: \d+\n/);
  });

  it('pins every action by a full commit SHA, with its tag beside it', () => {
    const uses = [...WORKFLOW.matchAll(/uses: (\S+)/g)].map((match) => match[1] ?? '');
    expect(uses.length).toBeGreaterThan(10);
    for (const line of WORKFLOW.split('\n').filter((text) => text.includes('uses: '))) {
      expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    }
  });

  it('synthesizes and checks both stages once, before any deploy, and uploads both assemblies', () => {
    const synth = all.get('synth') ?? '';
    expect(synth).toContain('-c stage=dev --quiet -o cdk.out.dev');
    expect(synth).toContain('-c stage=prod --quiet -o cdk.out.prod');
    expect(synth).toMatch(/cfn-lint .*cdk\.out\.dev\/\*\.template\.json cdk\.out\.prod\/\*\.template\.json/);
    expect(synth).toMatch(/name: cdk-out-dev\n\s+path: cdk\.out\.dev/);
    expect(synth).toMatch(/name: cdk-out-prod\n\s+path: cdk\.out\.prod/);
    expect(all.get('lint')).toContain('actionlint');
  });

  it.each([
    ['deploy-dev', 'dev'],
    ['deploy-prod', 'prod'],
  ])('%s downloads and deploys the checked %s assembly, synthesizing nothing', (name, stage) => {
    const job = all.get(name) ?? '';
    expect(job).toMatch(new RegExp(`name: cdk-out-${stage}\\n\\s+path: cdk\\.out\\.${stage}`));
    expect(job).toContain(`npx cdk deploy --app cdk.out.${stage} --all`);
    expect(job).not.toMatch(/cdk synth|run synth/);
  });

  it('asks for the prod approval only after the dev stage passed its smoke suite', () => {
    expect(all.get('smoke-dev')).toMatch(/needs: deploy-dev/);
    expect(all.get('smoke-dev')).toContain('npm run --silent smoke --');
    expect(all.get('deploy-prod')).toMatch(/needs: \[synth, smoke-dev\]/);
    expect(all.get('deploy-prod')).toContain('environment: production');
  });
});
