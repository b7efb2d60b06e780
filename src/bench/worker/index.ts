// The piscina worker: one task is one worker's share of one target for one round.
import type { Task, WorkerResult } from '../protocol.js';
import { runChunked } from './chunked-load.js';
import { runHttp } from './http-load.js';
import { runPipeline } from './pipeline-load.js';

export default function run(task: Task): Promise<WorkerResult> {
  switch (task.kind) {
    case 'http':
      return runHttp(task);
    case 'chunked':
      return runChunked(task);
    case 'pipeline':
      return runPipeline(task);
  }
}
