import type { OperationCounts } from './operation-tally.js';
import { AggregatorRegistry, Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { DurationHistogram } from './duration-histogram.js';
import { forEachAnswer, type RouteTally } from './route-tally.js';
import type { AnswerSource } from '../../../common/answer-source.js';

/** The `scope` label of `chaos_rate_limit_violations_total`: which limiter refused the request. */
export type RateLimitScope = 'global' | 'per_ip' | 'per_endpoint';

const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = ['global', 'per_ip', 'per_endpoint'];

/** What the WebSocket server counts per path (runtime/terminal/websocket/ws-stats.ts). */
export interface WebSocketPathCounts {
  sessions: number;
  active: number;
  messages_in: number;
  messages_out: number;
}

/**
 * The Prometheus exposition of one server, in its own Registry so that two servers in one process
 * do not clash. Request counters and the duration histogram are computed at scrape time from the
 * TrafficStats attached to it (`stats.attach(prometheus)`), so the request path never touches
 * prom-client, whose `inc`/`observe` hash the label set on every call.
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  private readonly sources: Array<() => Iterable<RouteTally>> = [];
  private readonly faultSources: Array<() => Record<string, number>> = [];
  private readonly webSocketSources: Array<() => Record<string, WebSocketPathCounts>> = [];
  private readonly graphqlSources: Array<() => Record<string, OperationCounts>> = [];
  private readonly grpcSources: Array<() => Record<string, OperationCounts>> = [];
  private readonly violations: Counter<'scope'>;

  constructor() {
    const registers = [this.registry];
    const sources = this.sources;
    // Recomputed from the route tallies on each scrape: prom-client calls `collect` with the
    // counter as `this` just before rendering it.
    const countStatuses = (counter: Counter<'method' | 'route' | 'status' | 'source'>, errorsOnly: boolean): void => {
      counter.reset();
      for (const source of sources) {
        for (const tally of source()) {
          const add = (status: number, answered: AnswerSource, count: number): void => {
            if (!errorsOnly || status >= 400) counter.inc({ method: tally.method, route: tally.path, status, source: answered }, count);
          };
          // Same labels add up, so the counts from before an admin reset join the current ones.
          if (tally.prometheus !== null) forEachAnswer(tally.prometheus.carried, add);
          forEachAnswer(tally.answers, add);
        }
      }
    };
    new Counter({
      name: 'mock_http_requests_total',
      help: 'Requests answered, per route, status and source (what made the answer: example, generated, runtime_mock, fixture, proxy, chaos, refusal …)',
      labelNames: ['method', 'route', 'status', 'source'] as const,
      registers,
      collect() {
        countStatuses(this, false);
      },
    });
    new Counter({
      name: 'mock_http_request_errors_total',
      help: 'Requests answered with a status of 400 or more, per route, status and source',
      labelNames: ['method', 'route', 'status', 'source'] as const,
      registers,
      collect() {
        countStatuses(this, true);
      },
    });
    // A duck-typed metric: prom-client's types only admit its own classes.
    this.registry.registerMetric(new DurationHistogram(sources) as unknown as Metric);
    this.violations = new Counter({
      name: 'chaos_rate_limit_violations_total',
      help: 'Requests refused with 429 by a rate limiter, per limiter scope',
      labelNames: ['scope'] as const,
      registers,
    });
    for (const scope of RATE_LIMIT_SCOPES) this.violations.inc({ scope }, 0);
    const faultSources = this.faultSources;
    new Counter({
      name: 'chaos_faults_injected_total',
      help: 'Answers changed by chaos, per kind (http_error, timeout, tcp_reset, packet_loss, latency …)',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        for (const source of faultSources) for (const [kind, count] of Object.entries(source())) this.inc({ kind }, count);
      },
    });
    const webSocketSources = this.webSocketSources;
    const eachPath = (read: (path: string, counts: WebSocketPathCounts) => void): void => {
      for (const source of webSocketSources) for (const [path, counts] of Object.entries(source())) read(path, counts);
    };
    new Counter({
      name: 'mock_websocket_sessions_total',
      help: 'WebSocket sessions that ended, per path (a route pattern, or the path no route claims)',
      labelNames: ['path'] as const,
      registers,
      collect() {
        this.reset();
        eachPath((path, counts) => this.inc({ path }, counts.sessions));
      },
    });
    new Counter({
      name: 'mock_websocket_messages_total',
      help: 'WebSocket messages of ended sessions, per path and direction (in: from clients)',
      labelNames: ['path', 'direction'] as const,
      registers,
      collect() {
        this.reset();
        eachPath((path, counts) => {
          this.inc({ path, direction: 'in' }, counts.messages_in);
          this.inc({ path, direction: 'out' }, counts.messages_out);
        });
      },
    });
    new Gauge({
      name: 'mock_websocket_connections',
      help: 'WebSocket connections open now, per path',
      labelNames: ['path'] as const,
      registers,
      collect() {
        this.reset();
        eachPath((path, counts) => this.set({ path }, counts.active));
      },
    });
    const graphqlSources = this.graphqlSources;
    new Counter({
      name: 'mock_graphql_operations_total',
      help: 'GraphQL operations answered, per operation (type and name; (anonymous) without one, (none) for requests refused before one ran) and outcome',
      labelNames: ['operation', 'outcome'] as const,
      registers,
      collect() {
        this.reset();
        for (const source of graphqlSources) {
          for (const [operation, counts] of Object.entries(source())) {
            this.inc({ operation, outcome: 'ok' }, counts.count - counts.errors);
            this.inc({ operation, outcome: 'error' }, counts.errors);
          }
        }
      },
    });
    const grpcSources = this.grpcSources;
    new Counter({
      name: 'mock_grpc_calls_total',
      help: 'gRPC calls that ended, per method (/package.Service/Method), status name (OK, NOT_FOUND, DEADLINE_EXCEEDED …) and outcome (ok: status OK)',
      labelNames: ['method', 'status', 'outcome'] as const,
      registers,
      collect() {
        this.reset();
        for (const source of grpcSources) {
          for (const [method, counts] of Object.entries(source())) {
            for (const [status, count] of Object.entries(counts.statuses ?? {})) this.inc({ method, status, outcome: status === 'OK' ? 'ok' : 'error' }, count);
          }
        }
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'mock_' });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts one request refused by a rate limiter. */
  rateLimitViolation(scope: RateLimitScope): void {
    this.violations.inc({ scope });
  }

  /** The exposition in Prometheus text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Every metric as plain data, for one exposition of several workers' (mock serve --workers, renderAll). */
  snapshot(): Promise<unknown[]> {
    return this.registry.getMetricsAsJSON();
  }

  /**
   * One exposition of several workers' snapshots: prom-client's AggregatorRegistry sums counters
   * and histograms of the same labels, and aggregates the process gauges as prom-client defines for
   * node:cluster (sums, or the first for versions and start times).
   */
  renderAll(snapshots: unknown[]): Promise<string> {
    return AggregatorRegistry.aggregate(snapshots as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
  }

  /** Adds chaos fault counts (by kind) to read at each scrape. */
  trackFaults(source: () => Record<string, number>): void {
    this.faultSources.push(source);
  }

  /** Adds WebSocket counts per path to read at each scrape. */
  trackWebSocket(source: () => Record<string, WebSocketPathCounts>): void {
    this.webSocketSources.push(source);
  }

  /** Adds gRPC counts per method to read at each scrape. */
  trackGrpc(source: () => Record<string, OperationCounts>): void {
    this.grpcSources.push(source);
  }

  /** Adds GraphQL counts per operation to read at each scrape. */
  trackGraphql(source: () => Record<string, OperationCounts>): void {
    this.graphqlSources.push(source);
  }

  /** Adds route tallies to read at each scrape; `TrafficStats.attach` calls it. */
  track(source: () => Iterable<RouteTally>): void {
    this.sources.push(source);
  }
}
