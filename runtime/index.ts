import type { RunningServer, ServeOptions } from './serve-options.js';
import type { Engine } from './terminal/openapi/index.js';
import { startMock } from './servers/index.js';

export type { ClientAuth, HttpVersion, RunningServer, ServeOptions, TlsOptions, ValidationMode, ValidationOptions } from './serve-options.js';
export type { ApiAuthOptions, SchemePins } from './chain/security/index.js';
export { Engine, loadBuild, runtimeRequire, type AnswerCheck } from './terminal/openapi/index.js';
export { Exchange, type ValidationIssue } from './chain/exchange/index.js';
export { RequestLog, RequestLogEntry, type RequestLogEntryJson, type RequestLogFilter } from './control/logging/index.js';
export { startAdminOnly, startMock, type AdminOnlyOptions, type AdminServerOptions, type MockOptions, type RunningMock } from './servers/index.js';
export { hashPassword, type AuthOptions } from './control/auth/index.js';
export { WORKERS_APPLIED_HEADER, type ClusterQuestion, type ClusterView, type WorkerStatus } from './control/admin/index.js';
export { httpUrl, sharePorts } from './servers/index.js';
export {
  ClusterStores,
  MemoryStores,
  StoreHost,
  STORE_NAMES,
  isStoreMessage,
  type FromWorker,
  type ToWorker,
  type Awaitable,
  type Store,
  type StoreBudget,
  type StoreChange,
  type StoreFactory,
  type StoreName,
  type StoreUsage,
} from './store/index.js';
export { CONVERT_FORMATS, RecordingsFile, convertRecording, toFixtures, toRoutesYaml, type ConvertFormat, type Recording } from './chain/recorder/index.js';

/** The HTTP mock server alone (with its /__mock management router), as the conformance self-test serves it. */
export async function startHttpServer(options: ServeOptions): Promise<RunningServer & { operations: number; engine: Engine }> {
  const running = await startMock({
    ...options,
    specPath: null,
    auth: { enabled: false, seedDevUsers: false },
    envVariables: [],
    projectDir: process.cwd(),
    version: '',
  });
  const control = running.servers.find((server) => server.control !== undefined)?.control;
  const engine = (): Engine => control?.engine() as Engine;
  return {
    host: options.host,
    port: control?.httpPort ?? options.port,
    operations: engine().build.operations.length,
    get engine() {
      return engine();
    },
    requestLog: running.requestLog,
    close: () => running.close(),
  };
}
export { loadOverrides } from './chain/overrides/index.js';
export type { OverrideRule } from './chain/overrides/index.js';
export type { ScenarioControl } from './control/admin/index.js';
export { createGenRuntime } from '../common/generate/index.js';
export { createTemplateRuntime, templateRenderer, type Render, type TemplateContext } from './template/index.js';
export {
  Aggregate,
  CaptureAnalyzer,
  MISMATCH_TYPES,
  MIN_SAMPLE,
  PatchBuilder,
  readCapture,
  type AnalysisReport,
  type Capture,
  type CaptureAnalysis,
  type CorrectionPatch,
  type Mismatch,
  type MismatchGroup,
  type MismatchType,
  type Recommendation,
  type Severity,
} from './contract-diff/index.js';
export { DriftWebhooks, type DriftObservation, type DriftWebhooksOptions, type WebhookPayload, type WebhookTarget } from './drift/webhooks/index.js';
export type { AiOperation, AiOptions } from './chain/ai/index.js';
export { LLM_TIMEOUT_MS, explainGroups, resolveLlmProvider, type ExplainGroup, type ExplainOptions, type Explanations } from './drift/explain/index.js';
export {
  ABI_VERSION,
  DEFAULT_LIMITS,
  MODULE_FILE,
  PLUGIN_KINDS,
  RECORD_FILE,
  Sandbox,
  checkModule,
  readInstalled,
  type InstallRecord,
  type InstalledPlugin,
  type PluginLimits,
  type PluginManifest,
} from './plugins/index.js';
