import path from 'node:path';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type ICommandHooks,
  LogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { NativeModule } from '../../shared/catalogue/index.ts';
import { BUNDLE } from '../bundle-options.ts';
import { type NativeTarget, nativeModuleHooks } from './native-modules.ts';
import { entryFilePath } from '../generated-entries.ts';

/** The repository root: entries in the catalogue are relative to it, and esbuild resolves from it. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** Stand-in code when bundling is off: template assertions need a function, not its code. */
const STUB_CODE = 'exports.handler = async () => { throw new Error("bundling was disabled at synth"); };';

/** Bundling hooks that copy files beside the bundled code (by base name), where the function reads them. */
function copyBeside(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map((file) => `cp "${path.join(inputDir, file)}" "${path.join(outputDir, path.basename(file))}"`),
  };
}

/** Several bundling hooks as one: the bundling takes a single `commandHooks`. */
function chainHooks(hooks: readonly ICommandHooks[]): ICommandHooks {
  return {
    beforeBundling: (inputDir, outputDir) =>
      hooks.flatMap((hook) => hook.beforeBundling(inputDir, outputDir)),
    beforeInstall: (inputDir, outputDir) => hooks.flatMap((hook) => hook.beforeInstall(inputDir, outputDir)),
    afterBundling: (inputDir, outputDir) => hooks.flatMap((hook) => hook.afterBundling(inputDir, outputDir)),
  };
}

/** What decides a function's code: its entry file and how it is bundled. */
export interface FunctionCode {
  /** Entry file relative to the repository root (a catalogue entry's `entry`). */
  readonly entry: string;
  /**
   * Bundle the entry with esbuild; `false` uses an inline stub (template-only synths and infra tests).
   * @default true
   */
  readonly bundle?: boolean;
  /** Native packages installed into this function's asset for linux-arm64 instead of bundled. */
  readonly nativeModules?: readonly NativeModule[];
  /**
   * Whose binaries the native packages are (see native-modules.ts).
   * @default 'lambda'
   */
  readonly nativeTarget?: NativeTarget;
  /** Files (from the repository root) copied beside the bundled code, which reads them at run time. */
  readonly bundleFiles?: readonly string[];
}

/**
 * The Lambda function of an entry: its code bundled by the local esbuild with the shared options (native packages
 * installed beside it, `bundleFiles` copied beside it), or the stand-in when bundling is off.
 */
export function bundledFunction(
  scope: Construct,
  id: string,
  common: Omit<lambda.FunctionProps, 'handler' | 'code'>,
  code: FunctionCode,
): lambda.Function {
  if (code.bundle === false) {
    return new lambda.Function(scope, id, {
      ...common,
      handler: 'index.handler',
      code: lambda.Code.fromInline(STUB_CODE),
    });
  }
  const hooks = [
    ...(code.nativeModules?.length
      ? [nativeModuleHooks(code.nativeModules, PROJECT_ROOT, code.nativeTarget)]
      : []),
    ...(code.bundleFiles?.length ? [copyBeside(code.bundleFiles)] : []),
  ];
  return new NodejsFunction(scope, id, {
    ...common,
    entry: entryFilePath(code.entry),
    handler: 'handler',
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
    bundling: {
      // The local esbuild from node_modules: synth needs no Docker.
      forceDockerBundling: false,
      // esbuild says nothing but warnings and errors (not each bundle's size: a hundred functions).
      logLevel: LogLevel.WARNING,
      format: OutputFormat.ESM,
      minify: BUNDLE.minify,
      sourceMap: true,
      sourceMapMode: SourceMapMode.EXTERNAL,
      sourcesContent: BUNDLE.sourcesContent,
      target: BUNDLE.target,
      mainFields: [...BUNDLE.mainFields],
      banner: BUNDLE.banner,
      externalModules: [...BUNDLE.external, ...(code.nativeModules ?? [])],
      ...(hooks.length ? { commandHooks: chainHooks(hooks) } : {}),
    },
  });
}
