import type { Logger } from 'pino';
import type { ResponseCacheOptions, ValidationMode, ValidationOptions } from '../../serve-options.js';
import type { BuildModule, OperationMeta, RouteResponder } from '../../../common/contract/index.js';
import type { Answer, BuildRoute, Exchange } from '../../chain/exchange/index.js';
import type { Description } from '../../chain/index.js';
import { runtimeRequire } from './load-build.js';
import { createGenRuntime } from '../../../common/generate/index.js';
import { createTemplateRuntime, type TemplateContext, type TemplateRuntime } from '../../template/index.js';
import { isStackOverflow } from '../../../common/json-depth.js';
import { refusal, requestTooDeep, type Refusal } from '../../chain/exchange/index.js';
import { readPreference } from './prefer.js';
import { Refusals } from './refusal.js';
import { ContentNegotiation } from './negotiate.js';
import { ResponseCache } from './response-cache.js';
import { AnswerChecks, type AnswerCheck } from './answer-check.js';
import { customRouteAnswer } from './custom-routes.js';
import type { LiveSettings } from './live-settings.js';
import { Cell, MemoryStore, settingsBudget, type Awaitable, type Store } from '../../store/index.js';
import { queryObject, requestContext } from './request-context.js';
import { RequestValidation } from './request-validation.js';
import { Responses } from './responses.js';
import { DEFAULT_PACING, type StreamPacing } from './sequence-stream.js';
import { Router } from './router.js';

export interface EngineOptions {
  validation: ValidationOptions;
  templateExpand: boolean;
  seed?: number;
  /** The clock of date-time values and {{now}} (epoch ms): the process's virtual clock; absent: the real clock. */
  clock?: () => number;
  logger: Logger;
  /** response.caching when enabled; absent: answers are made for each request. */
  responseCache?: ResponseCacheOptions;
  /** The settings store, which keeps what the admin API changes (validation, template expansion) across restarts; default: one of its own in memory. */
  settings?: Store<unknown>;
  /** http.streams: the pacing of streamed answers (sequential media types); absent: DEFAULT_PACING. */
  streams?: StreamPacing;
  /** Answers the templates' {{plugin:…}} calls and x-mock-data-source fields (mock.yaml plugins); absent: a call renders as written, a field is generated. */
  plugins?: { call(plugin: string, action: string, input: string): unknown };
}

/** One route of the build (an operation or a custom route), made once: statistics key maps by it. */
export type EngineRoute = BuildRoute;

/**
 * Dispatches a request to the generated router, validators and responders. Protocol-free:
 * the HTTP server adapts its library's request into a MockRequest and writes the MockResponse.
 * The parts by role: the router (router.ts), request validation (request-validation.ts), the
 * response chosen and made (responses.ts), custom routes (custom-routes.ts), answers checked
 * against the description (answer-check.ts), refusals (refusal.ts), response.caching
 * (response-cache.ts); the engine composes them and holds what the admin API changes.
 */
export class Engine implements Description {
  readonly build: BuildModule;
  /** Operations first, then custom routes, in build order. */
  readonly routes: EngineRoute[];
  private readonly live: LiveSettings;
  private readonly validation: Cell<ValidationOptions>;
  private readonly templateExpand: Cell<boolean>;
  private readonly templates: TemplateRuntime;
  private readonly cache: ResponseCache | null;
  private readonly router: Router;
  private readonly requests: RequestValidation;
  private readonly responses: Responses;
  private readonly checks: AnswerChecks;
  private readonly refusals: Refusals;
  private readonly customRoutes: readonly RouteResponder[];
  readonly callbackValues: ReadonlyArray<ReadonlyArray<(() => unknown) | null>>;
  /** By the build's webhooks, then their parameters: generators of the values the description does not give. */
  readonly webhookValues: ReadonlyArray<ReadonlyArray<(() => unknown) | null>>;

  constructor(build: BuildModule, options: EngineOptions) {
    this.build = build;
    const settings = options.settings ?? new MemoryStore('settings', settingsBudget);
    this.validation = new Cell(settings as Store<ValidationOptions>, 'validation', options.validation);
    this.templateExpand = new Cell(settings as Store<boolean>, 'template-expand', options.templateExpand);
    this.live = { validation: this.validation.get(), templateExpand: this.templateExpand.get() };
    const validators = build.createValidators(runtimeRequire);
    const clock = options.clock;
    const responders = build.createResponders(createGenRuntime({ seed: options.seed, now: clock, plugins: options.plugins }));
    this.customRoutes = responders.routes;
    this.callbackValues = responders.callbacks ?? [];
    this.webhookValues = responders.webhooks ?? [];
    const offered = responders.operations.map((table) => table.responses.map((r) => r.contents.map((c) => c.type)));
    const negotiation = new ContentNegotiation();
    this.templates = createTemplateRuntime({ seed: options.seed, now: clock, plugins: options.plugins });
    this.cache = options.responseCache === undefined ? null : new ResponseCache(options.responseCache);
    this.checks = new AnswerChecks(responders.operations, validators, this.live, options.logger);
    const refuse = (ex: Exchange, index: number | undefined, refused: Refusal): Answer => this.refuse(ex, index, refused);
    this.requests = new RequestValidation(build.operations, validators, this.live, options.logger, refuse);
    this.responses = new Responses(responders.operations, offered, negotiation, this.templates, this.cache, this.live, this.checks, refuse, options.streams ?? DEFAULT_PACING);
    this.refusals = new Refusals(
      responders.operations,
      offered,
      negotiation,
      (ex, status, response, content, example) => this.responses.documented(status, response, content, () => requestContext(ex), null, example),
      (content, value) => this.checks.conforms(content, value),
    );
    const behaviours = new Map(build.behaviours.map((b) => [b.route, b]));
    this.routes = [
      ...build.operations.map((op) => ({ key: op.key, id: `description ${op.key}`, method: op.method, path: op.path, tags: op.tags })),
      // a custom route's conditions tell it from others of its key, and stay its own across a restart that reorders mock.yaml
      ...build.customRoutes.map((route) => ({ key: `${route.method} ${route.path}`, id: `custom_route ${route.method} ${route.path} ${JSON.stringify(route.match)}`, method: route.method, path: route.path, tags: [] as string[] })),
    ].map((route, index) => ({ ...route, index, behaviour: behaviours.get(index) ?? null }));
    this.router = new Router(build, this.routes, this.requests.check);
    this.validation.onChange((validation) => {
      this.live.validation = validation;
      this.requests.resolve(validation);
    });
    this.templateExpand.onChange((on) => {
      this.live.templateExpand = on;
      this.cache?.clear();
    });
  }

  /** Stops following the settings store: a restart replaced this engine. */
  close(): void {
    this.validation.close();
    this.templateExpand.close();
  }

  get validationOptions(): ValidationOptions {
    return this.live.validation;
  }

  get templateExpansion(): boolean {
    return this.live.templateExpand;
  }

  /** Drops the answers response.caching keeps (they were made at another instant: the clock jumped). */
  clearCache(): void {
    this.cache?.clear();
  }

  /** Settles once the store holds the setting. */
  setTemplateExpansion(on: boolean): Awaitable<void> {
    return this.templateExpand.set(on);
  }

  /** Template functions seeded like the engine's own, for runtime-created mocks. */
  get templateRuntime(): TemplateRuntime {
    return this.templates;
  }

  /** The validation mode of the operation at `index` (validation.overrides applied). */
  modeOf(index: number): ValidationMode {
    return this.requests.modeOf(index);
  }

  /** Applies new validation settings to every operation at once. */
  setValidation(validation: ValidationOptions): Awaitable<void> {
    return this.validation.set(validation);
  }

  /**
   * A refused request (validation, security, 404, 405, 406, 415) answered as validation.error_body
   * says: in the words of the operation at `index` when it documents the status, else the problem.
   */
  refuse(ex: Exchange, index: number | undefined, refused: Refusal): Answer {
    return this.refusals.answer(ex, index, refused, this.live.validation.error_body);
  }

  /** Hot path: the one routing of a request (router.ts). */
  route(ex: Exchange): void {
    this.router.route(ex);
  }

  /**
   * Hot path: the answer of the description (or custom route) the request was routed to. A body
   * nested too deeply for a recursive walk over it (a template echoing it) is a 400, not a 500.
   */
  respond(ex: Exchange): Answer {
    const match = ex.match;
    try {
      switch (match.kind) {
        case 'operation':
          return this.handleOperation(this.build.operations[match.index], match.index, ex);
        case 'custom':
          return customRouteAnswer(this.customRoutes[match.index], ex, this.templates, this.live.templateExpand);
        case 'method':
          return this.methodNotAllowed(ex, match.allow);
        case 'none':
          return this.notFound(ex);
      }
    } catch (e) {
      if (isStackOverflow(e)) return requestTooDeep(ex);
      throw e;
    }
  }

  /**
   * Holds an answer (status, content type, body) of the operation at `index` against the
   * response its description documents, with the server's own validators: `mock verify-mocks`
   * checks recorded answers with it.
   */
  checkAnswer(index: number, status: number, contentType: string | undefined, body: Uint8Array): AnswerCheck {
    return this.checks.check(index, status, contentType, body);
  }

  /** route and respond in one (tests, tools). */
  handle(ex: Exchange): Answer {
    this.route(ex);
    return this.respond(ex);
  }

  /** Validate by the operation's mode, then answer as the request prefers. */
  private handleOperation(op: OperationMeta, index: number, ex: Exchange): Answer {
    const mode = this.requests.modeOf(index);
    const { headers, params: path, query } = ex;
    let parsedBody: unknown;
    if (mode !== 'off') {
      const checked = ex.validated();
      const refused = this.requests.judge(op, index, mode, checked, ex);
      if (refused !== undefined) return refused;
      parsedBody = checked.body;
    }
    const context = (): TemplateContext => ({
      path,
      query: queryObject(query),
      headers,
      body: parsedBody !== undefined ? parsedBody : ex.json,
    });
    return this.responses.operation(op, index, readPreference(headers.prefer, query), ex, context);
  }

  // no operation was matched, so no description has words for these: the problem body (marked like every refusal)
  private notFound(ex: Exchange): Answer {
    const bases = this.build.specs.map((s) => s.basePath).filter((b) => b !== '');
    // the mounts are a hint only when the path is outside all of them
    const mounts = bases.some((b) => ex.path.startsWith(b)) ? [] : bases;
    return this.refuse(ex, undefined, refusal('MOCK_ERR_ROUTE_NOT_FOUND', { method: ex.method, path: ex.path, mounts }));
  }

  private methodNotAllowed(ex: Exchange, allow: string): Answer {
    if (ex.method === 'OPTIONS') return { status: 204, headers: [['allow', allow]], body: '', source: 'builtin' };
    return this.refuse(ex, undefined, refusal('MOCK_ERR_METHOD_NOT_ALLOWED', { method: ex.method, path: ex.path, allow }, { headers: [['allow', allow]] }));
  }
}
