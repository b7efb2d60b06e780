/**
 * A build run in a child process for `mock serve` (see build-in-worker.ts): it takes the build
 * options as its first message, and sends back progress, then the result or the failure.
 */
import { isMockError } from '../../common/errors.js';
import { build, type BuildOptions } from '../../compiler/serving.js';

const send = process.send?.bind(process);
if (send === undefined) throw new Error('build-worker.js runs as a child process of mock serve');
process.once('message', (options: BuildOptions) => {
  build({ ...options, progress: (stage, done, total) => send({ kind: 'progress', stage, done, total }) })
    .then((result) => send({ kind: 'done', result }))
    .catch((e: unknown) => {
      const error = e instanceof Error ? e : new Error(String(e));
      send({ kind: 'failed', message: error.message, stack: error.stack, ...(isMockError(e) ? { code: e.code, exitCode: e.exitCode } : {}) });
    })
    .finally(() => process.disconnect());
});
