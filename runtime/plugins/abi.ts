/**
 * The plugin ABI (docs/plugins.md, "ABI"): what a module must export and how JSON crosses the
 * boundary. One version today; a module whose mock_abi_version answers another is refused.
 *
 * - `memory`: the module's own linear memory, declared with a maximum (no imported memory)
 * - `mock_abi_version() -> i32`: ABI_VERSION
 * - `mock_alloc(size: i32) -> i32`: a pointer to `size` bytes the host writes the input JSON into
 * - one function per action, `(ptr: i32, len: i32) -> i32`: given the input's UTF-8 JSON, a pointer
 *   to the output: its byte length as a little-endian u32, then that many bytes of UTF-8 JSON
 * - the manifest (MANIFEST_SECTION): a custom section holding the plugin's JSON manifest
 *
 * Imports: only WASI preview 1 (`wasi_snapshot_preview1`), whose files reach only the paths
 * allowed_paths grants. The host provides no other function, so a plugin has no network.
 */
export const ABI_VERSION = 1;
export const ABI_VERSION_EXPORT = 'mock_abi_version';
export const ALLOC_EXPORT = 'mock_alloc';
export const MANIFEST_SECTION = 'mock.plugin';
export const WASI_MODULE = 'wasi_snapshot_preview1';
export const WASM_PAGE_BYTES = 65536;

export const PLUGIN_KINDS = ['middleware', 'template_function', 'response_modifier', 'data_source', 'request_validator'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** A declared test case: the action given `input` must answer `output` (compared as JSON). */
export interface PluginTestCase {
  action: string;
  input: unknown;
  output: unknown;
}

/** The manifest a module carries in its MANIFEST_SECTION. */
export interface PluginManifest {
  name: string;
  version: string;
  abi: number;
  description?: string;
  /** Each action the module exports, and the kind of hook it is. */
  actions: Record<string, { kind: PluginKind }>;
  tests?: PluginTestCase[];
}

/** Per plugin: what its sandbox may use. */
export interface PluginLimits {
  /** Caps the module's declared linear-memory maximum (checked at load; memory.grow fails past it). */
  max_memory_mb: number;
  /** Wall-clock time a call may take before its thread is stopped. */
  max_execution_ms: number;
  /** Host directories the plugin may open through WASI, each mapped to the same path inside. */
  allowed_paths: string[];
}

export const DEFAULT_LIMITS: PluginLimits = { max_memory_mb: 50, max_execution_ms: 1000, allowed_paths: [] };
