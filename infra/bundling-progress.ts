/**
 * The CDK writes `Bundling asset <construct path>...` to standard error for every asset it bundles: a hundred
 * lines a synth, one per function. This counts those lines instead of printing them and, when the synth is done,
 * says in one line how many were bundled and how long it took. Every other line passes through unchanged.
 */
export function summarizeBundling(): { done(): void } {
  const write = process.stderr.write.bind(process.stderr);
  const started = performance.now();
  let bundled = 0;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && /^Bundling asset \S+\.\.\.\n$/.test(chunk)) {
      bundled += 1;
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    done() {
      process.stderr.write = write;
      if (bundled > 0) {
        write(`bundled ${bundled} assets in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      }
    },
  };
}
