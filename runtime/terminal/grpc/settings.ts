import type { GrpcMethodRule } from '../../../common/grpc/method-rules.js';
import type { TemplatePlugins } from '../../template/index.js';

/** What mock.yaml's grpc section sets for the mocked services (src/cli/serve-options.ts fills it). */
export interface GrpcMockSettings {
  /** --seed: the same call answers the same message; undefined: a random seed per start. */
  seed?: number;
  /** The virtual clock (epoch ms): Timestamp values count from it. */
  now: () => number;
  /** grpc.methods, in order: the first rule whose method and match hold answers. */
  rules: readonly GrpcMethodRule[];
  /** grpc.stream: how many generated messages a server stream sends, and how far apart. */
  stream: { count: number; intervalMs: number };
  /** Answers the rules' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
}
