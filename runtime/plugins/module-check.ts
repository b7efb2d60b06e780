import { ABI_VERSION, ABI_VERSION_EXPORT, ALLOC_EXPORT, MANIFEST_SECTION, PLUGIN_KINDS, WASI_MODULE, WASM_PAGE_BYTES, type PluginLimits, type PluginManifest } from './abi.js';

/** What a module is, as far as loading it needs to know; `problems` empty when it may be loaded. */
export interface ModuleReport {
  manifest: PluginManifest | undefined;
  /** The declared maximum of the module's own memory, in bytes (undefined: none declared). */
  memoryMaxBytes: number | undefined;
  usesWasi: boolean;
  problems: string[];
}

/**
 * Checks a module against the ABI without running it: its manifest, its exports, its imports (WASI
 * only) and its memory (its own, with a maximum within max_memory_mb). The ABI version export is
 * called when the sandbox loads it.
 */
export function checkModule(bytes: Uint8Array, limits?: Pick<PluginLimits, 'max_memory_mb'>): ModuleReport {
  const problems: string[] = [];
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  } catch (e) {
    return { manifest: undefined, memoryMaxBytes: undefined, usesWasi: false, problems: [`not a WebAssembly module: ${(e as Error).message}`] };
  }
  const manifest = readManifest(module, problems);
  const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  for (const name of [ABI_VERSION_EXPORT, ALLOC_EXPORT, ...Object.keys(manifest?.actions ?? {})]) {
    if (exports.get(name) !== 'function') problems.push(`export ${name} is missing (a function; ABI version ${ABI_VERSION})`);
  }
  if (exports.get('memory') !== 'memory') problems.push('export memory is missing (the module must export its own memory)');
  const imports = WebAssembly.Module.imports(module);
  for (const i of imports) {
    if (i.module !== WASI_MODULE) problems.push(`import ${i.module}.${i.name} is refused: the host provides only ${WASI_MODULE} (no network, files only in allowed_paths)`);
    else if (i.kind !== 'function') problems.push(`import ${i.module}.${i.name} is refused: only functions are imported`);
  }
  const memoryMaxBytes = declaredMemoryMax(bytes);
  if (memoryMaxBytes === undefined) problems.push('memory declares no maximum: declare one, e.g. (memory (export "memory") 1 16)');
  else if (limits !== undefined && memoryMaxBytes > limits.max_memory_mb * 1024 * 1024) {
    problems.push(`memory maximum ${memoryMaxBytes / 1024 / 1024} MB is above max_memory_mb ${limits.max_memory_mb} (lower the module's maximum, or raise max_memory_mb in mock.yaml)`);
  }
  return { manifest, memoryMaxBytes, usesWasi: imports.length > 0, problems };
}

function readManifest(module: WebAssembly.Module, problems: string[]): PluginManifest | undefined {
  const sections = WebAssembly.Module.customSections(module, MANIFEST_SECTION);
  if (sections.length !== 1) {
    problems.push(`the module carries no ${MANIFEST_SECTION} custom section (its manifest)`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(sections[0]));
  } catch {
    problems.push(`the ${MANIFEST_SECTION} section is not JSON`);
    return undefined;
  }
  const m = value as Partial<PluginManifest>;
  const before = problems.length;
  if (typeof m.name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(m.name)) problems.push('manifest name must be lower-case letters, digits, - and _ (at most 64)');
  if (typeof m.version !== 'string' || !/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(m.version)) problems.push('manifest version must be a semantic version (1.2.3)');
  if (m.abi !== ABI_VERSION) problems.push(`manifest abi is ${JSON.stringify(m.abi)}; this mock speaks ABI version ${ABI_VERSION}`);
  if (typeof m.actions !== 'object' || m.actions === null || Object.keys(m.actions).length === 0) problems.push('manifest actions must name at least one action');
  else {
    for (const [action, spec] of Object.entries(m.actions)) {
      if (!(PLUGIN_KINDS as readonly string[]).includes(spec?.kind)) problems.push(`action ${action}: kind must be one of ${PLUGIN_KINDS.join(', ')}`);
    }
  }
  if (m.tests !== undefined && (!Array.isArray(m.tests) || m.tests.some((t) => typeof t?.action !== 'string' || !Object.hasOwn(m.actions ?? {}, t.action)))) {
    problems.push('manifest tests must be a list of {action, input, output} naming declared actions');
  }
  return problems.length === before ? (m as PluginManifest) : undefined;
}

/** The maximum of the memory the module defines, in bytes, read from its memory section (id 5). */
function declaredMemoryMax(bytes: Uint8Array): number | undefined {
  let at = 8;
  const leb = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 5) {
      if (leb() < 1) return undefined;
      const flags = leb();
      leb();
      return (flags & 1) === 1 ? leb() * WASM_PAGE_BYTES : undefined;
    }
    at = end;
  }
  return undefined;
}
