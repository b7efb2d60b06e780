// Starts node the way a user does: without tap's process-info recorder.
//
// tap loads @tapjs/processinfo into every test process, and through NODE_OPTIONS and a hook on
// child_process (process-on-spawn) into every process a test starts, whatever env the test gives.
// In a `mock` child it only records which files were loaded (coverage is off in .taprc), yet it
// hooks every module load and turns source maps on: a CLI start costs about twice the CPU (1.2 s
// → 2.4 s for `mock data open-api`), and the suite starts the CLI several hundred times. The hook
// cannot be told to leave a child alone, so the child is started through /usr/bin/env, which sets
// NODE_OPTIONS back to what the test meant (the test's own NODE_OPTIONS, or this process's,
// without tap's loader) and then execs node: the same process id, signals and exit code.

const recorder = /@tapjs[\\/]processinfo/;
const loaderFlags = new Set(['--import', '--loader', '--experimental-loader']);

/** NODE_OPTIONS without tap's process-info loader (tap writes it as `"--import=file:///…"`). */
export function withoutRecorder(nodeOptions = '') {
  const kept = [];
  for (const token of nodeOptions.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? []) {
    if (recorder.test(token)) {
      if (loaderFlags.has(kept.at(-1))) kept.pop();
      continue;
    }
    kept.push(token);
  }
  return kept.join(' ');
}

/**
 * The command and arguments that run `node <args>` with `env` (the environment the child gets)
 * but without tap's recorder: `spawn(...plainNode(args, env), options)`.
 */
export function plainNode(args, env = process.env) {
  const nodeOptions = withoutRecorder(env.NODE_OPTIONS);
  const set = nodeOptions === '' ? ['-u', 'NODE_OPTIONS'] : [`NODE_OPTIONS=${nodeOptions}`];
  return ['/usr/bin/env', [...set, process.execPath, ...args]];
}
