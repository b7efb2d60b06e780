import { MockError } from '../../common/errors.js';
import { AdminClient, type AdminAnswer, type AdminTarget } from '../cli/admin-client.js';
import type { ChaosProfile, ChaosStatus, Coverage, FixtureItem, FixtureSettings, LogEntry, RouteRow, UnmatchedItem } from './types.js';

/**
 * The admin API as the terminal dashboard calls it: the CLI's one client (src/cli/admin-client.ts),
 * a shorter time-out, the start-up check that tells a refused token (401/403) from auth being off
 * (404), and the reads of each view.
 */
export class AdminApi extends AdminClient {
  constructor(target: AdminTarget, timeoutMs = 5000) {
    super(target, timeoutMs);
  }

  /**
   * Before the screen is taken: the admin API answers, and accepts the token when one is given.
   * Throws one line naming the URL and the fix.
   */
  async preflight(): Promise<void> {
    let health: AdminAnswer;
    try {
      health = await this.request('GET', 'health');
    } catch (e) {
      throw new MockError('MOCK_ERR_ADMIN_UNREACHABLE', `mock tui: ${(e as Error).message}`);
    }
    const services = (health.data as { services?: unknown } | undefined)?.services;
    if (health.status !== 200 || typeof services !== 'object') {
      throw new MockError(
        'MOCK_ERR_ADMIN_UNREACHABLE',
        `mock tui: ${this.shown} is not the admin API of mock (GET /__mock/api/health answered ${health.error ?? `HTTP ${health.status}`}): pass the address mock serve --admin prints as --admin-url`,
      );
    }
    if (this.target.token === undefined) return;
    const me = await this.request('GET', 'auth/me');
    // 404: authentication is off on that server, so the token is not needed (and harmless)
    if (me.status === 401 || me.status === 403) {
      throw new MockError(
        'MOCK_ERR_ADMIN_REFUSED',
        `mock tui: the admin API at ${this.shown} refused the token: ${me.error}; pass the access_token of POST /__mock/auth/login as --token (or MOCK_ADMIN_TOKEN)`,
      );
    }
  }

  logs(limit: number): Promise<LogEntry[]> {
    return this.get<LogEntry[]>(`logs?limit=${limit}`);
  }

  metrics(): Promise<{ total_requests: number; memory_usage_over_time?: [string, number][]; cpu_usage_over_time?: [string, number][] }> {
    return this.get('metrics');
  }

  async routes(): Promise<{ rows: RouteRow[]; coverage: Coverage }> {
    const [dashboard, coverage] = await Promise.all([this.get<{ routes: RouteRow[] }>('dashboard'), this.get<Coverage>('coverage')]);
    return { rows: dashboard.routes, coverage };
  }

  unmatched(limit = 50): Promise<UnmatchedItem[]> {
    return this.get<UnmatchedItem[]>(`unmatched?limit=${limit}`);
  }

  async chaos(): Promise<{ profiles: ChaosProfile[]; status: ChaosStatus }> {
    const [profiles, config, stats, settings] = await Promise.all([
      this.get<ChaosProfile[]>('chaos/profiles'),
      this.get<Record<string, unknown> & { active_profile?: string | null }>('chaos/config'),
      this.get<{ total_faults: number; by_type: Record<string, number> }>('chaos/stats'),
      this.get<{ latency?: { enabled: boolean; base_ms: number; jitter_ms: number } }>('config'),
    ]);
    const blocks = Object.entries(config)
      .filter(([, block]) => typeof block === 'object' && block !== null && (block as { enabled?: unknown }).enabled === true)
      .map(([name]) => name);
    const latency = settings.latency;
    if (latency?.enabled) blocks.unshift(`latency ${latency.base_ms}${latency.jitter_ms > 0 ? `+${latency.jitter_ms}` : ''} ms`);
    return {
      profiles: profiles.map(({ name, description, builtin }) => ({ name, description, builtin })),
      status: { active_profile: config.active_profile ?? null, enabled_blocks: blocks, total_faults: stats.total_faults, by_type: stats.by_type },
    };
  }

  applyProfile(name: string): Promise<{ applied: string }> {
    return this.call('POST', `chaos/profiles/${encodeURIComponent(name)}/apply`);
  }

  /** Chaos back to the settings of the start, and the global latency off (what a profile set). */
  async resetChaos(): Promise<void> {
    await this.call('POST', 'chaos/config/reset');
    await this.call('POST', 'config/latency', { enabled: false });
  }

  async fixtures(): Promise<{ items: FixtureItem[]; settings: FixtureSettings }> {
    const [items, settings] = await Promise.all([this.get<FixtureItem[]>('fixtures'), this.get<FixtureSettings>('fixtures/settings')]);
    return { items, settings };
  }
}
