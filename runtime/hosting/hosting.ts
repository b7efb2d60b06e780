import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { MockError } from '../../common/errors.js';
import { Exchange, problem, type Answer } from '../chain/exchange/index.js';
import type { Dispatch } from '../chain/index.js';
import type { AdminLimits } from '../serve-options.js';
import type { Store, StoreFactory } from '../store/index.js';
import type { AccessPolicy } from '../control/admin/index.js';
import type { TenantMock, TenantMockSpec } from './tenant-mock-types.js';
import { limitExperiments } from './experiment-timer.js';
import { operatorDigest } from './keys.js';
import { HOSTED_PREFIX, allows, isTenantEndpoint, quotaOf, type NamedPlan, type Plan } from './plans.js';
import { QuotaStores } from './quota-stores.js';
import { TenantAuth } from './tenant-auth.js';
import type { TenantKey, TenantRecord } from './tenant-record.js';

export interface HostingOptions {
  /** tenancy.plans */
  plans: Readonly<Record<string, Plan>>;
  /** tenancy.tenants: hosted mocks of the host's configuration, their descriptions files of the project. */
  declared: ReadonlyArray<{ id: string; plan: string; description?: string; file: string }>;
  /** admin.management_token: the operator's, which may do everything. */
  managementToken: string;
  /** Where each tenant's folder goes (`.mock/tenants`). */
  dir: string;
  /** The host's stores; each tenant's are `within` them. */
  stores: StoreFactory;
  /** Builds the description `file` into `dir/name`; answers the build's folder. A description that does not build throws its one-line error. */
  build(file: string, dir: string, name: string): Promise<string>;
  /** Opens a tenant's mock (runtime/servers/tenant-mock.ts). */
  open(spec: TenantMockSpec): Promise<TenantMock>;
  limits: AdminLimits;
  logger: Logger;
  /** The admin API's Host and Origin rules, which hosted mode's control paths keep too. */
  access: AccessPolicy;
}

/** A hosted mock open in this process. */
export interface OpenTenant {
  record: TenantRecord;
  plan: NamedPlan;
  mock: TenantMock;
  stop: () => void;
  buildDir: string;
}

/** A revision's description built, in the tenant's folder. */
export interface Built {
  buildDir: string;
  specPath: string;
  dir: string;
}

/** Builds made by this process (by every Hosting of it: mock sync makes one per generation): each goes to a folder of its own. */
let builds = 0;

/** `build-<revision>-<pid>-<n>`: whose the folder is (instances sharing a store may share the project folder too). */
const BUILD_FOLDER = /^build-\d+-(\d+)-\d+$/;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const hostedBudget = {
  maxBytes: 256 * 1024 * 1024,
  past: 'refuse' as const,
  setting: 'tenancy (256 MiB of hosted mocks and their descriptions)',
  sizeOf: (key: string, value: TenantRecord) => key.length + Buffer.byteLength(JSON.stringify(value)),
};

/**
 * Hosted mode (docs/hosting.md): the tenants of one server, each a mock of its own behind
 * `/api/v1/hosted-mocks/{id}/`. The tenants are records of the `hosted-mocks` store: every
 * instance that shares it builds and opens each one, and closes it when it is deleted. A tenant's
 * state lives in stores of its own (`within` the host's), under its plan's storage quota.
 */
export class Hosting {
  private readonly registry: Store<TenantRecord>;
  private readonly tenants = new Map<string, OpenTenant>();
  private readonly storesOf = new Map<string, StoreFactory>();
  private readonly queue = new Map<string, Promise<void>>();
  private unsubscribe: (() => void) | undefined;
  readonly operator: Buffer;

  constructor(readonly options: HostingOptions) {
    if (options.stores.within === undefined) {
      throw new MockError(
        'MOCK_ERR_TENANCY_CONFIG',
        "tenancy: hosted mode with --workers needs state.store redis (the workers' shared memory store cannot hold tenants); or serve it from one process",
      );
    }
    this.registry = options.stores.open('hosted-mocks', hostedBudget);
    this.operator = operatorDigest(options.managementToken);
  }

  /** Puts the declared tenants in the store (those absent, or declared otherwise than it holds), then opens every tenant it holds. */
  async start(): Promise<void> {
    this.unsubscribe = this.registry.subscribe((change) => void this.follow(change.key, change.value));
    for (const declared of this.options.declared) {
      await this.registry.update(declared.id, (current) => {
        if (current !== undefined && 'file' in current.source && current.source.file === declared.file && current.plan === declared.plan) return undefined;
        return {
          id: declared.id,
          plan: declared.plan,
          description: declared.description ?? null,
          created_at: current?.created_at ?? new Date().toISOString(),
          source: { file: declared.file },
          keys: current?.keys ?? [],
          revision: (current?.revision ?? 0) + 1,
        };
      });
    }
    for (const [id, record] of await this.registry.entries()) await this.follow(id, record);
  }

  planOf(name: string): NamedPlan | undefined {
    const plan = Object.hasOwn(this.options.plans, name) ? this.options.plans[name] : undefined;
    return plan === undefined ? undefined : { name, plan };
  }

  get planNames(): string[] {
    return Object.keys(this.options.plans);
  }

  tenant(id: string): OpenTenant | undefined {
    return this.tenants.get(id);
  }

  list(): TenantRecord[] {
    return [...this.tenants.values()].map((t) => t.record);
  }

  get store(): Store<TenantRecord> {
    return this.registry;
  }

  /**
   * The store changed (here or on another instance): open, reopen or close the tenant, one change
   * of a tenant at a time. Settles once done; a failure is logged (the previous revision keeps
   * serving), and `strict` (the API's own change) rejects with it too.
   */
  follow(id: string, record: TenantRecord | undefined, strict = false, built?: Built): Promise<void> {
    const applied = (this.queue.get(id) ?? Promise.resolve()).then(() => this.apply(id, record, built));
    const logged = applied.catch((e: unknown) => this.options.logger.warn(`hosted mock "${id}" cannot be served: ${e instanceof Error ? e.message : String(e)}`));
    this.queue.set(id, logged);
    return strict ? applied : logged;
  }

  /**
   * Builds a revision's description in the tenant's folder, into a folder of this process no build
   * had (`build-<revision>-<pid>-<n>`): a folder imported before keeps its modules cached, and
   * another instance sharing the project builds and removes its own. The API builds first, so that a description that does not build is refused,
   * and hands the build to follow().
   */
  async build(record: Pick<TenantRecord, 'id' | 'source' | 'revision'>): Promise<Built> {
    const dir = path.join(this.options.dir, record.id);
    mkdirSync(dir, { recursive: true });
    const { source } = record;
    let specPath: string;
    if ('file' in source) specPath = source.file;
    else {
      specPath = path.join(dir, `description.${source.format}`);
      writeFileSync(specPath, source.document);
    }
    // folders of instances gone (a restart's) go; those of running ones are theirs
    for (const old of readdirSync(dir)) {
      const owner = BUILD_FOLDER.exec(old)?.[1];
      if (owner !== undefined && Number(owner) !== process.pid && !alive(Number(owner))) rmSync(path.join(dir, old), { recursive: true, force: true });
    }
    return { buildDir: await this.options.build(specPath, dir, `build-${record.revision}-${process.pid}-${++builds}`), specPath, dir };
  }

  /** Removes the folder of a tenant that is not served (a refused creation's). */
  forget(id: string): void {
    if (!this.tenants.has(id)) rmSync(path.join(this.options.dir, id), { recursive: true, force: true });
  }

  private async apply(id: string, record: TenantRecord | undefined, built?: Built): Promise<void> {
    const current = this.tenants.get(id);
    if (record === undefined) {
      if (current === undefined) return;
      this.tenants.delete(id);
      current.stop();
      await current.mock.close();
      const stores = this.storesOf.get(id);
      this.storesOf.delete(id);
      for (const store of stores?.opened() ?? []) await store.clear();
      rmSync(path.join(this.options.dir, id), { recursive: true, force: true });
      this.options.logger.info(`hosted mock "${id}" deleted`);
      return;
    }
    if (current !== undefined && current.record.revision === record.revision) {
      current.record = record;
      return;
    }
    const plan = this.planOf(record.plan);
    if (plan === undefined) throw new Error(`its plan ${record.plan} is not in tenancy.plans (${this.planNames.join(', ')})`);
    const opened = await this.open(record, plan, built);
    this.tenants.set(id, opened);
    if (current !== undefined) {
      current.stop();
      await current.mock.close();
    }
    const dir = path.join(this.options.dir, id);
    for (const old of readdirSync(dir)) {
      if (BUILD_FOLDER.exec(old)?.[1] === String(process.pid) && path.join(dir, old) !== opened.buildDir) rmSync(path.join(dir, old), { recursive: true, force: true });
    }
    this.options.logger.info(`hosted mock "${id}" serves at ${HOSTED_PREFIX}/${id}/ (plan ${plan.name}, revision ${record.revision})`);
  }

  private async open(record: TenantRecord, plan: NamedPlan, prebuilt?: Built): Promise<OpenTenant> {
    const { id } = record;
    const built = prebuilt ?? (await this.build(record));
    let base = this.storesOf.get(id);
    if (base === undefined) {
      base = (this.options.stores.within as NonNullable<StoreFactory['within']>)(id);
      this.storesOf.set(id, base);
    }
    const storageMb = quotaOf(plan, 'max_storage_mb');
    const stores = storageMb === undefined ? base : new QuotaStores(base, storageMb * 1024 * 1024, `max_storage_mb of plan ${plan.name}`);
    const limits = this.limitsOf(plan);
    const holder: { tenant?: OpenTenant } = {};
    const auth = new TenantAuth({
      id,
      operator: this.operator,
      record: () => holder.tenant?.record ?? record,
      plan: () => plan,
      updateKeys: (change) => this.updateKeys(id, change),
    });
    const mock = await this.options.open({
      id,
      dir: built.dir,
      buildDir: built.buildDir,
      specPath: built.specPath,
      stores,
      auth,
      limits,
      quota: { id, plan: plan.name, requestsPerMinute: quotaOf(plan, 'max_requests_per_minute'), concurrent: quotaOf(plan, 'max_concurrent_executions') },
      external: allows(plan, 'can_integrate_external'),
      ml: allows(plan, 'can_use_ml_features'),
      isTenantEndpoint,
    });
    const seconds = quotaOf(plan, 'max_experiment_duration_secs');
    const stop =
      seconds === undefined
        ? () => undefined
        : limitExperiments(mock.live, seconds, () => this.options.logger.info(`hosted mock "${id}": chaos turned off after ${seconds} s (max_experiment_duration_secs of plan ${plan.name})`));
    holder.tenant = { record, plan, mock, stop, buildDir: built.buildDir };
    return holder.tenant;
  }

  /** admin.limits held to the plan's counts, as a second guard behind quotaRefusal's messages. */
  private limitsOf(plan: NamedPlan): AdminLimits {
    const { limits } = this.options;
    const min = (own: number, quota: number | undefined): number => (quota === undefined ? own : Math.min(own, quota));
    return {
      ...limits,
      max_mocks: min(limits.max_mocks, quotaOf(plan, 'max_scenarios')),
      max_override_rules: min(limits.max_override_rules, quotaOf(plan, 'max_templates')),
      max_chaos_profiles: min(limits.max_chaos_profiles, quotaOf(plan, 'max_orchestrations')),
    };
  }

  private async updateKeys(id: string, change: (keys: TenantKey[]) => TenantKey[]): Promise<void> {
    const updated = await this.registry.update(id, (current) => (current === undefined ? undefined : { ...current, keys: change(current.keys) }));
    const open = this.tenants.get(id);
    if (updated !== undefined && open !== undefined && open.record.revision === updated.revision) open.record = updated;
  }

  /** Requests under `/api/v1/hosted-mocks/{id}/` go to that tenant's mock, at the path below it; the others to the host's own. */
  dispatch(own: Dispatch): Dispatch {
    const routed = new WeakMap<Exchange, { dispatch: Dispatch; ex: Exchange } | null>();
    const prefix = `${HOSTED_PREFIX}/`;
    const route = (ex: Exchange): { dispatch: Dispatch; ex: Exchange } | null | undefined => {
      if (!ex.path.startsWith(prefix)) return undefined;
      const rest = ex.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) return undefined;
      const tenant = this.tenants.get(rest.slice(0, slash));
      if (tenant === undefined) return null;
      const inner = new Exchange({ method: ex.method, path: rest.slice(slash), rawQuery: ex.rawQuery, headers: ex.headers, body: ex.body, client: ex.client, startedAt: ex.startedAt });
      return { dispatch: tenant.mock.dispatch, ex: inner };
    };
    const unknown = (ex: Exchange): Answer => {
      const id = ex.path.slice(prefix.length).split('/')[0];
      return problem('MOCK_ERR_TENANT_NOT_FOUND', { id });
    };
    return {
      maxBodyBytes: own.maxBodyBytes,
      answer(ex) {
        const to = route(ex);
        if (to === undefined) return own.answer(ex);
        routed.set(ex, to);
        return to === null ? unknown(ex) : to.dispatch.answer(to.ex);
      },
      tooLarge(ex) {
        const to = route(ex);
        if (to === undefined) return own.tooLarge(ex);
        routed.set(ex, to);
        return to === null ? unknown(ex) : to.dispatch.tooLarge(to.ex);
      },
      badFraming(ex, reason) {
        return own.badFraming(ex, reason);
      },
      written(ex, answer) {
        const to = routed.get(ex);
        if (to === undefined) own.written(ex, answer);
        else if (to !== null) to.dispatch.written(to.ex, answer);
      },
    };
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await Promise.all([...this.queue.values()]);
    for (const tenant of this.tenants.values()) {
      tenant.stop();
      await tenant.mock.close();
    }
    this.tenants.clear();
  }
}
