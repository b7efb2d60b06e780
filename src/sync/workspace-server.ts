import path from 'node:path';
import type { StoreFactory } from '../../runtime/store/index.js';
import type { FlagSetting, ResolvedConfig } from '../config/index.js';
import { startServing, type Serving } from '../cli/start-serving.js';
import { workspaceFilter, type WorkspaceFilter } from './ignored.js';
import { boundPortPins, sharedPortPins, withPins } from './port-pins.js';

export interface WorkspaceServerOptions {
  /** The configuration as it is now on disk (mock.yaml, the scenario in use, the environment, the flags), with `pins` over it. */
  load(pins: readonly FlagSetting[]): ResolvedConfig;
  allowRefs: string[];
  /** Shared by every generation: what requests and the admin API changed outlives a reload. */
  stores?: StoreFactory;
  /** What happened, one line each (stdout). */
  say(line: string): void;
  /** What went wrong, one line each (stderr); serving goes on. */
  problem(line: string): void;
}

const relative = (dir: string, files: readonly string[]): string => {
  const names = files.map((file) => path.relative(dir, file) || '.');
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
};

/** Whether the next generation's server on a port can bind beside the current one's: both on uWS, which binds with SO_REUSEPORT under mock sync. */
const bindsBeside = (library: string, previous: ResolvedConfig, next: ResolvedConfig): boolean => library === 'uws' && next.config.server.http_backend === previous.config.server.http_backend;

/**
 * The servers of a workspace, one generation at a time (mock sync). A reload reads the
 * configuration again and brings the build up to date while the current generation serves. Then
 * port by port: a uWS server of the next generation binds beside the current one (SO_REUSEPORT), so
 * no connection is refused; a node:http or gRPC server first lets the current one stop accepting
 * and answer what it holds (server.shutdown_timeout_ms), then binds. Once the next generation
 * listens everywhere, the rest of the current one finishes its requests and closes. What cannot be
 * read or built is said in one line and the current generation keeps serving; a next generation
 * that fails to start is replaced by the last good one.
 */
export class WorkspaceServer {
  private serving: Serving;
  private resolved: ResolvedConfig;
  /** What the workspace's file-system events are about, for the configuration serving now. */
  private kept: { resolved: ResolvedConfig; filter: WorkspaceFilter } | undefined;
  private readonly pins: FlagSetting[];
  private running: Promise<void> | undefined;
  private queued: string[] = [];
  private closed = false;

  private constructor(
    private readonly options: WorkspaceServerOptions,
    serving: Serving,
    resolved: ResolvedConfig,
    shared: FlagSetting[],
  ) {
    this.serving = serving;
    this.pins = [...shared, ...boundPortPins(resolved, serving.running)];
    // what a failed reload falls back to, on the ports the first generation got
    this.resolved = withPins(resolved, this.pins);
  }

  static async start(options: WorkspaceServerOptions): Promise<WorkspaceServer> {
    const shared = await sharedPortPins(options.load([]));
    const resolved = options.load(shared);
    const serving = await startServing(resolved, { allowRefs: options.allowRefs, stores: options.stores, say: options.say, followed: true });
    return new WorkspaceServer(options, serving, resolved, shared);
  }

  get current(): Serving {
    return this.serving;
  }

  get config(): ResolvedConfig {
    return this.resolved;
  }

  /** Which changed paths start no reload and which folders are never walked (worked out once per configuration). */
  get filter(): WorkspaceFilter {
    if (this.kept?.resolved !== this.resolved) this.kept = { resolved: this.resolved, filter: workspaceFilter(this.resolved) };
    return this.kept.filter;
  }

  /** Reloads for the files that changed (absolute paths); reloads asked for during one run as one more after it. */
  reload(changed: readonly string[]): Promise<void> {
    this.queued.push(...changed);
    this.running ??= (async () => {
      while (this.queued.length > 0 && !this.closed) {
        const files = [...new Set(this.queued.splice(0))];
        await this.generation(files);
      }
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    await this.serving.close();
  }

  private async generation(files: readonly string[]): Promise<void> {
    const { options } = this;
    const what = relative(this.resolved.projectDir, files);
    const started = performance.now();
    let next: ResolvedConfig;
    try {
      next = options.load(this.pins);
    } catch (e) {
      options.problem(`mock sync: ${(e as Error).message} (still serving the last good state; changed: ${what})`);
      return;
    }
    const previous = this.serving;
    const lastGood = this.resolved;
    let handedOver = false;
    const beforeListen = async (port: number): Promise<void> => {
      const held = previous.running.listeners().find((listener) => listener.port === port);
      if (held === undefined) return;
      handedOver = true;
      if (!bindsBeside(held.library, lastGood, next)) await previous.running.release(port);
    };
    try {
      this.serving = await startServing(next, { allowRefs: options.allowRefs, stores: options.stores, say: options.say, beforeListen, followed: true });
    } catch (e) {
      const reason = (e as Error).message;
      if (!handedOver) {
        options.problem(`mock sync: ${reason} (still serving the last good state; changed: ${what})`);
        return;
      }
      await previous.close();
      this.serving = await startServing(lastGood, { allowRefs: options.allowRefs, stores: options.stores, say: options.say, followed: true });
      options.problem(`mock sync: ${reason} (serving the last good state again; changed: ${what})`);
      return;
    }
    await previous.close();
    this.resolved = withPins(next, this.pins);
    options.say(`mock sync: reloaded in ${Math.round(performance.now() - started)} ms (changed: ${what})`);
  }
}
