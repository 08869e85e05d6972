import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The assembly the bundled mode runs: `cdk synth -c stage=dev -c nativeTarget=host`, the dev stage exactly as it
 * deploys except that native packages (sharp) carry this machine's binaries. It lives in its own folder
 * (`node_modules/.cache/community-bundled/cdk.out`, never `cdk.out`), so it is never what a deploy takes, and is
 * synthesized again only when a source file, the lock file or the CDK app changed since.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
export const LOCAL_ASSEMBLY_DIR = join(ROOT, 'node_modules', '.cache', 'community-bundled', 'cdk.out');
const SOURCES = ['shared', 'functions', 'infra', 'package-lock.json', 'cdk.json'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    // The local stack's own code does not change what is synthesized.
    if (path.endsWith('infra') && entry === 'local') continue;
    newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

export function isAssemblyCurrent(dir: string = LOCAL_ASSEMBLY_DIR): boolean {
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest)) return false;
  const built = statSync(manifest).mtimeMs;
  return SOURCES.every((source) => newestChange(join(ROOT, source)) < built);
}

/** Synthesizes the local assembly unless it is current; answers its folder. */
export async function ensureLocalAssembly(
  dir: string = LOCAL_ASSEMBLY_DIR,
  log: (line: string) => void = () => {},
): Promise<string> {
  if (isAssemblyCurrent(dir)) return dir;
  log(`synthesizing the dev stage for this machine into ${dir} (about two minutes)`);
  const cdk = join(ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk');
  const args = [cdk, 'synth', '-c', 'stage=dev', '-c', 'nativeTarget=host', '--quiet', '-o', dir];
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-20_000);
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`cdk synth for the bundled mode failed (${code}):\n${errors}`)),
    );
  });
  return dir;
}
