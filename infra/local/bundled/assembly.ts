import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A synthesized cloud assembly (`cdk synth`'s output folder) read as plain data: every stack's template, and the
 * exports that stacks import from each other. The bundled local mode wires nothing from the catalogue: what runs
 * and with what (code, environment, limits, routes, permissions) is read from here.
 */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
}

export interface SynthesizedStack {
  readonly name: string;
  readonly resources: Readonly<Record<string, TemplateResource>>;
  readonly outputs: Readonly<Record<string, { Value: unknown; Export?: { Name: string } }>>;
}

export interface CloudAssembly {
  /** The assembly folder; asset paths in templates are relative to it. */
  readonly dir: string;
  readonly stacks: readonly SynthesizedStack[];
  /** Export name → the stack exporting it and the exported value (an intrinsic of that stack). */
  readonly exports: ReadonlyMap<string, { stack: SynthesizedStack; value: unknown }>;
}

interface Manifest {
  artifacts?: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }>;
}

export function readCloudAssembly(dir: string): CloudAssembly {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const stacks: SynthesizedStack[] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    const template = JSON.parse(readFileSync(join(dir, artifact.properties.templateFile), 'utf8')) as {
      Resources?: SynthesizedStack['resources'];
      Outputs?: SynthesizedStack['outputs'];
    };
    stacks.push({
      name: artifact.properties.stackName ?? id,
      resources: template.Resources ?? {},
      outputs: template.Outputs ?? {},
    });
  }
  if (stacks.length === 0) throw new Error(`${dir} holds no synthesized stack (run cdk synth first)`);
  const exports = new Map<string, { stack: SynthesizedStack; value: unknown }>();
  for (const stack of stacks) {
    for (const output of Object.values(stack.outputs)) {
      if (output.Export) exports.set(output.Export.Name, { stack, value: output.Value });
    }
  }
  return { dir, stacks, exports };
}

/** Every resource of a type across the assembly, with its stack and logical id. */
export function resourcesOfType(
  assembly: CloudAssembly,
  type: string,
): { stack: SynthesizedStack; logicalId: string; resource: TemplateResource }[] {
  return assembly.stacks.flatMap((stack) =>
    Object.entries(stack.resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
  );
}
