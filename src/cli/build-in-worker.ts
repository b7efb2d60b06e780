import { fork } from 'node:child_process';
import { MockError, type MockErrorCode } from '../../common/errors.js';
import { bundleEntry } from '../../common/package-root.js';
import type { BuildOptions, BuildProgress, build } from '../../compiler/serving.js';

type Built = Awaited<ReturnType<typeof build>>;

type WorkerMessage =
  | { kind: 'progress'; stage: string; done?: number; total?: number }
  | { kind: 'done'; result: Built }
  | { kind: 'failed'; message: string; stack?: string; code?: MockErrorCode; exitCode?: number };

/**
 * Builds in a child process. The parser, the bundler, the emitters and the TypeScript compiler
 * load there and all their memory goes with it, so a server that had to build first does not
 * carry them for as long as it serves (a worker thread gives its heap back, but not what the
 * allocator kept: about 30 MB more for the example petstore). Costs one Node start (~50 ms); it
 * starts from the command line's bundle, as the commands do.
 */
export function buildInWorker(options: Omit<BuildOptions, 'progress'>, progress?: BuildProgress): Promise<Built> {
  return new Promise<Built>((resolve, reject) => {
    const child = fork(bundleEntry('workers/build-worker'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    child.on('message', (message: WorkerMessage) => {
      if (message.kind === 'progress') progress?.(message.stage, message.done, message.total);
      else if (message.kind === 'done') {
        settled = true;
        resolve(message.result);
      } else {
        settled = true;
        const error = message.code === undefined ? new Error(message.message) : new MockError(message.code, message.message, message.exitCode);
        if (message.stack !== undefined) error.stack = message.stack;
        reject(error);
      }
    });
    child.on('error', (e) => {
      settled = true;
      reject(e);
    });
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`the build stopped without an answer (exit code ${code}${signal === null ? '' : `, signal ${signal}`})`));
    });
    child.send(options);
  });
}
