import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { NativeModule } from '../../shared/catalogue/index.ts';

/**
 * Native packages (sharp: libvips) cannot be bundled by esbuild, and the machine that synthesizes is not the
 * arm64 Linux that runs the function. So a function that names one in its catalogue entry leaves it out of the
 * bundle, and after bundling npm installs that package, at the version the lock file pinned, into the function's
 * asset with the target platform forced (`--os=linux --cpu=arm64 --libc=glibc`): npm then picks the publisher's
 * prebuilt `@img/sharp-linux-arm64` and `@img/sharp-libvips-linux-arm64` instead of the host's. No Docker, no
 * compiler; npm reads its cache first (`--prefer-offline`), so only the first synth on a machine fetches the
 * prebuilt tarballs from the registry. Functions that name no native package are untouched.
 */
export function installedVersion(name: NativeModule, projectRoot: string): string {
  const manifest = path.join(projectRoot, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Whose binaries a synth installs: Lambda's (linux-arm64, what deploys) or this machine's (`-c nativeTarget=host`:
 * the local bundled mode runs the assets here, where an arm64 libvips cannot load; never deployed).
 */
export type NativeTarget = 'lambda' | 'host';

function platformFlags(target: NativeTarget): string {
  if (target === 'lambda') return '--os=linux --cpu=arm64 --libc=glibc';
  const libc = process.platform === 'linux' ? ' --libc=glibc' : '';
  return `--os=${process.platform} --cpu=${process.arch}${libc}`;
}

export function nativeModuleHooks(
  modules: readonly NativeModule[],
  projectRoot: string,
  target: NativeTarget = 'lambda',
): ICommandHooks {
  const specs = modules.map((name) => `${name}@${installedVersion(name, projectRoot)}`).join(' ');
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    // The asset folder gets its own package.json first: without one npm walks up to the nearest project (this
    // repository, when cdk.out sits inside it) and would install there, pruning its dev dependencies. Its summary
    // line goes nowhere (standard output to /dev/null); errors still reach the synth's output.
    afterBundling: (_inputDir: string, outputDir: string) => [
      `cd "${outputDir}" && printf '{"private":true}\\n' > package.json && ` +
        `npm install >/dev/null --no-save --no-package-lock --omit=dev --no-audit --no-fund --loglevel=error ` +
        `--prefer-offline ${platformFlags(target)} ${specs}`,
    ],
  };
}
