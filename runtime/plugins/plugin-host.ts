import path from 'node:path';
import type { Logger } from 'pino';
import { DEFAULT_LIMITS, type PluginKind, type PluginLimits, type PluginManifest } from './abi.js';
import { checkModule } from './module-check.js';
import { readInstalled } from './installed.js';
import { PluginFailure } from './plugin-failure.js';
import { Sandbox } from './sandbox.js';
import { andThen, type Store } from '../store/index.js';

/** One configured use of an action: `paths` (globs) select the requests it runs for; none: every request. */
export interface PluginHook {
  plugin: string;
  action: string;
  paths?: string[];
}

/** mock.yaml `plugins`, resolved. */
export interface PluginOptions {
  /** Where installed plugins live (plugins.dir, absolute). */
  dir: string;
  /** Limits of every plugin (plugins.max_memory_mb, plugins.max_execution_ms). */
  limits: Omit<PluginLimits, 'allowed_paths'>;
  /** Per plugin: its own limits and grants (plugins.sandbox.<name>); allowed_paths absolute. */
  sandbox: Record<string, Partial<PluginLimits>>;
  /** Failures in a row after which a plugin is disabled. */
  disableAfter: number;
  middleware: PluginHook[];
  requestValidators: PluginHook[];
  responseModifiers: PluginHook[];
}

/** What the plugin-health store keeps per plugin: failures in a row, and whether that disabled it. */
export interface PluginHealth {
  failures: number;
  disabled: boolean;
}

interface Loaded {
  manifest: PluginManifest;
  sandbox: Sandbox;
  limits: PluginLimits;
}

/**
 * The installed plugins of a server, each in its sandbox, and their health. A call that fails
 * costs its request a PluginFailure; `disableAfter` failures in a row disable the plugin (one log
 * line), and a disabled plugin is not called again until the health store forgets it (a restart
 * of a memory store; the admin clearing the shared one).
 */
export class PluginHost {
  private readonly plugins = new Map<string, Loaded>();
  /** Mirrors the store: the hot path reads this, never the store. */
  private readonly health = new Map<string, PluginHealth>();
  private readonly unsubscribe: () => void;

  constructor(
    readonly options: PluginOptions,
    private readonly store: Store<PluginHealth>,
    private readonly logger: Logger,
  ) {
    for (const { record, module } of readInstalled(options.dir)) {
      const limits: PluginLimits = { ...DEFAULT_LIMITS, ...options.limits, ...options.sandbox[record.name] };
      const report = checkModule(module, limits);
      if (report.manifest === undefined || report.problems.length > 0) {
        throw new Error(`plugin ${record.name} (${path.join(options.dir, record.name)}) cannot be loaded: ${report.problems.join('; ')} (run mock plugin validate ${record.name})`);
      }
      const sandbox = new Sandbox(module, Object.keys(report.manifest.actions), limits, report.usesWasi);
      try {
        sandbox.start();
      } catch (e) {
        throw new Error(`plugin ${record.name} cannot be loaded: ${(e as Error).message} (run mock plugin validate ${record.name})`);
      }
      this.plugins.set(record.name, { manifest: report.manifest, sandbox, limits });
    }
    this.unsubscribe = store.subscribe(({ key, value }) => {
      if (value === undefined) this.health.delete(key);
      else this.health.set(key, value);
    });
    // what a shared store holds already: a plugin another instance disabled stays disabled here
    quietly(
      andThen(store.entries(), (entries) => {
        for (const [name, health] of entries) if (!this.health.has(name)) this.health.set(name, health);
      }),
    );
    const hooks: Array<[PluginHook[], PluginKind, string]> = [
      [options.middleware, 'middleware', 'middleware'],
      [options.requestValidators, 'request_validator', 'request_validators'],
      [options.responseModifiers, 'response_modifier', 'response_modifiers'],
    ];
    for (const [list, kind, key] of hooks) {
      for (const { plugin, action } of list) {
        const declared = this.kindOf(plugin, action);
        if (declared !== kind) throw new Error(`plugins.${key}: ${plugin}'s action ${action} is a ${declared}, not a ${kind} (name one of its ${kind} actions)`);
      }
    }
  }

  /** The kind of a plugin's action; throws naming what is missing (a configuration error, at start). */
  kindOf(plugin: string, action: string): PluginKind {
    const loaded = this.plugins.get(plugin);
    if (loaded === undefined) throw new Error(`plugin ${plugin} is not installed in ${this.options.dir} (run mock plugin install, or check plugins.dir)`);
    const spec = loaded.manifest.actions[action];
    if (spec === undefined) throw new Error(`plugin ${plugin} has no action ${action} (it has ${Object.keys(loaded.manifest.actions).join(', ')})`);
    return spec.kind;
  }

  /** The installed plugins' manifests. */
  manifests(): PluginManifest[] {
    return [...this.plugins.values()].map((p) => p.manifest);
  }

  /** Hot path: calls `action` of `plugin` with `input` (JSON text); its answer parsed, or a PluginFailure thrown. */
  call(plugin: string, action: string, input: string): unknown {
    const loaded = this.plugins.get(plugin);
    if (loaded === undefined) throw new PluginFailure('MOCK_ERR_PLUGIN_FAILED', { plugin, action, reason: `plugin ${plugin} is not installed` }, `plugin ${plugin} is not installed`);
    const health = this.health.get(plugin);
    if (health?.disabled === true) throw new PluginFailure('MOCK_ERR_PLUGIN_DISABLED', { plugin, failures: health.failures }, `plugin ${plugin} is disabled`);
    const result = loaded.sandbox.call(action, input);
    if (result.ok) {
      try {
        const value: unknown = JSON.parse(result.json);
        if (health !== undefined && health.failures > 0) this.recover(plugin);
        return value;
      } catch {
        this.failed(plugin, loaded);
        throw new PluginFailure('MOCK_ERR_PLUGIN_FAILED', { plugin, action, reason: 'it answered what is not JSON' }, `plugin ${plugin}: ${action} answered what is not JSON`);
      }
    }
    this.failed(plugin, loaded);
    if (result.kind === 'timeout') throw new PluginFailure('MOCK_ERR_PLUGIN_TIMEOUT', { plugin, action, ms: loaded.limits.max_execution_ms }, result.reason);
    const reason = result.kind === 'trapped' ? `it trapped (${result.reason})` : result.reason;
    throw new PluginFailure('MOCK_ERR_PLUGIN_FAILED', { plugin, action, reason }, reason);
  }

  /** An answer that is JSON but not what the action's kind answers: counted as a failure; throw what it returns. */
  misanswered(plugin: string, action: string, reason: string): PluginFailure {
    const loaded = this.plugins.get(plugin);
    if (loaded !== undefined) this.failed(plugin, loaded);
    return new PluginFailure('MOCK_ERR_PLUGIN_FAILED', { plugin, action, reason }, reason);
  }

  /** Stops every plugin's thread. */
  close(): void {
    this.unsubscribe();
    for (const { sandbox } of this.plugins.values()) sandbox.stop();
  }

  private failed(plugin: string, loaded: Loaded): void {
    const limit = this.options.disableAfter;
    const local = this.health.get(plugin) ?? { failures: 0, disabled: false };
    // counted here at once, so the next call sees it whatever the store's speed
    this.health.set(plugin, { failures: local.failures + 1, disabled: local.failures + 1 >= limit });
    quietly(
      this.store.update(plugin, (current) => {
        const failures = (current?.failures ?? 0) + 1;
        const disabled = failures >= limit;
        if (disabled && current?.disabled !== true) {
          loaded.sandbox.stop();
          this.logger.error({ plugin, failures }, `plugin ${plugin} disabled after ${failures} failures in a row; its calls now answer 502 until mock serve restarts`);
        }
        return { failures, disabled };
      }),
    );
  }

  private recover(plugin: string): void {
    this.health.set(plugin, { failures: 0, disabled: false });
    quietly(this.store.update(plugin, (current) => (current?.disabled === true ? undefined : { failures: 0, disabled: false })));
  }
}

/** A store's answer no one waits for: a shared store's loss is logged once by its connection, not as an unhandled rejection. */
function quietly(result: unknown): void {
  if (result instanceof Promise) result.catch(() => {});
}
