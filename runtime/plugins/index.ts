export { ABI_VERSION, DEFAULT_LIMITS, PLUGIN_KINDS, type PluginKind, type PluginLimits, type PluginManifest, type PluginTestCase } from './abi.js';
export { checkModule, type ModuleReport } from './module-check.js';
export { readInstalled, MODULE_FILE, RECORD_FILE, type InstallRecord, type InstalledPlugin } from './installed.js';
export { PluginFailure } from './plugin-failure.js';
export { PluginHost, type PluginHealth, type PluginHook, type PluginOptions } from './plugin-host.js';
export { Sandbox, type CallResult } from './sandbox.js';
export { pluginHealthBudget } from './health-budget.js';
