export { PluginHooks, requestInput, type CompiledHook } from './hooks.js';
