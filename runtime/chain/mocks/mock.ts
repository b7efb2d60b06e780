import { fieldProblem } from '../../../common/http-fields.js';
import { hasTemplate, TemplateSyntaxError } from '../../../common/template/index.js';
import type { Answer, Exchange, RouteRef } from '../exchange/index.js';
import { templateRenderer, type Render, type TemplateContext, type TemplateRuntime } from '../../template/index.js';
import {
  compileConditions,
  compileJsonPathConditions,
  headersMatch,
  jsonPathConditionsHold,
  matchesPath,
  parsePathPattern,
  pathParams,
  patternsOverlap,
  queryMatches,
  type JsonPathCondition,
  type MissCandidate,
  type PathPattern,
  type TemplateSegment,
  type ValueCondition,
} from '../../match/index.js';
import { InputError, show } from './input-error.js';
import type { MockRecord } from './record.js';
import { queryRecord } from './request-parts.js';

/** How well a mock's method fits the request; 0 is no fit, a larger value a closer one. */
export type MethodFit = 0 | 1 | 2 | 3;

/**
 * A mock compiled once when created: path segments, condition regexes, templates, and the literal
 * response shared by every request that needs no template expansion.
 */
export class Mock {
  readonly route: RouteRef;
  /** Creation order; ties go to the later mock. */
  readonly seq: number;
  /** As checked when it was created: what the runtime-mocks store keeps. */
  readonly record: MockRecord;
  private readonly pattern: PathPattern;
  private readonly query: ValueCondition[];
  private readonly headers: ValueCondition[];
  private readonly jsonPath: JsonPathCondition[];
  private readonly literal: Answer;
  private readonly headerTemplates: Array<Render | null>;
  private readonly bodyTemplate: Render | null;
  private readonly templated: boolean;

  /** Throws InputError naming the field for a bad path, pattern or template. */
  constructor(record: MockRecord, seq: number) {
    this.record = record;
    this.seq = seq;
    // the mocks of one key are counted together, apart from the route of the build they shadow
    this.route = { key: `${record.method} ${record.path}`, id: `mock ${record.method} ${record.path}`, method: record.method, path: record.path };
    this.pattern = parsePathPattern(record.path);
    this.query = compileConditions(record.match_query, 'match_query');
    this.headers = compileConditions(record.match_headers, 'match_headers');
    this.jsonPath = compileJsonPathConditions(record.match_json_path, 'regex', 'match_json_path');
    const { body, headers = {} } = record.response;
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const given = Object.entries(headers);
    for (const [name, value] of given) {
      const problem = fieldProblem(name, value);
      if (problem !== undefined) throw new InputError(`response.headers ${show(name)} ${problem}`);
    }
    const named = given.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
    const headerTemplates = given.map(([name, value]) => compileField(value, 'none', `response.headers.${name}`));
    // strings are text, anything else JSON, unless the mock names its own content type
    if (body !== undefined && !named.some(([name]) => name === 'content-type')) {
      named.unshift(['content-type', typeof body === 'string' ? 'text/plain' : 'application/json']);
      headerTemplates.unshift(null);
    }
    this.literal = { status: record.status_code, headers: named, body: text, source: 'runtime_mock' };
    this.headerTemplates = headerTemplates;
    this.bodyTemplate = compileField(text, typeof body === 'string' ? 'none' : 'json', 'response.body');
    this.templated = this.bodyTemplate !== null || this.headerTemplates.some((t) => t !== null);
  }

  get id(): string {
    return this.record.id;
  }
  get name(): string {
    return this.record.name;
  }
  get method(): string {
    return this.record.method;
  }
  get path(): string {
    return this.record.path;
  }
  get enabled(): boolean {
    return this.record.enabled;
  }
  get priority(): number {
    return this.record.priority;
  }
  get latency_ms(): number | undefined {
    return this.record.latency_ms;
  }
  get segmentCount(): number {
    return this.pattern.segments.length;
  }

  /** Hot path. Exact method 3, GET answering HEAD 2, ANY 1. */
  methodFit(method: string): MethodFit {
    const own = this.record.method;
    if (own === method) return 3;
    if (own === 'GET' && method === 'HEAD') return 2;
    return own === 'ANY' ? 1 : 0;
  }

  /** Hot path. */
  matchesPath(segments: readonly string[]): boolean {
    return matchesPath(this.pattern, segments);
  }

  /** Hot path; the query and the JSON body are parsed only when a condition reads them. */
  matchesConditions(ex: Exchange): boolean {
    return (
      (this.query.length === 0 || queryMatches(this.query, ex.query)) &&
      headersMatch(this.headers, ex.headers) &&
      (this.jsonPath.length === 0 || jsonPathConditionsHold(this.jsonPath, ex.json))
    );
  }

  /** Whether a request path could match both this mock and a route of `template` (see templateSegments). */
  mayShareRequests(template: readonly TemplateSegment[]): boolean {
    return patternsOverlap(this.pattern, template);
  }

  /** What the unmatched-request view compares a request with: each condition with its text as the mock wrote it. */
  missCandidate(): MissCandidate {
    const texts = (map: Record<string, unknown> | undefined): string[] => Object.values(map ?? {}).map((spec) => (typeof spec === 'string' ? spec : JSON.stringify(spec)));
    const headerTexts = texts(this.record.match_headers);
    const queryTexts = texts(this.record.match_query);
    return {
      method: this.method,
      path: this.path,
      source: 'mock',
      mock_id: this.id,
      headers: this.headers.map((c, i) => ({ ...c, text: headerTexts[i] })),
      query: this.query.map((c, i) => ({ ...c, text: queryTexts[i] })),
      bodyConditions: this.jsonPath.length,
    };
  }

  params(segments: readonly string[]): Record<string, string> {
    return pathParams(this.pattern, segments);
  }

  /**
   * Whether this mock (fitting the method by `fit`) wins over `other` (by `otherFit`): priority,
   * then the spec's matching order (static path over parameterised, query conditions, header
   * conditions, body conditions), then the closer method, then the later mock.
   */
  outranks(fit: MethodFit, other: Mock, otherFit: MethodFit): boolean {
    if (this.priority !== other.priority) return this.priority > other.priority;
    if (this.pattern.specificity !== other.pattern.specificity) return this.pattern.specificity > other.pattern.specificity;
    if (this.query.length !== other.query.length) return this.query.length > other.query.length;
    if (this.headers.length !== other.headers.length) return this.headers.length > other.headers.length;
    if (this.jsonPath.length !== other.jsonPath.length) return this.jsonPath.length > other.jsonPath.length;
    if (fit !== otherFit) return fit > otherFit;
    return this.seq > other.seq;
  }

  respond(params: Record<string, string>, ex: Exchange, templateExpand: boolean, templates: TemplateRuntime): Answer {
    if (!templateExpand || !this.templated) return this.literal;
    let context: TemplateContext | undefined;
    const ctx = (): TemplateContext => (context ??= { path: params, query: queryRecord(ex.query), headers: ex.headers, body: ex.json });
    const headers = this.literal.headers.map(([name, value], i): [string, string] => {
      const template = this.headerTemplates[i];
      return [name, template === null ? value : template(templates, ctx())];
    });
    const body = this.bodyTemplate === null ? this.literal.body : this.bodyTemplate(templates, ctx());
    return { status: this.literal.status, headers, body, source: 'runtime_mock' };
  }

  /** The wire shape, without compiled parts. */
  toJSON(): MockRecord {
    return structuredClone(this.record);
  }
}

function compileField(text: string, escape: 'json' | 'none', field: string): Render | null {
  if (!hasTemplate(text)) return null;
  try {
    return templateRenderer(text, escape);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new InputError(`${field} has a template error: ${error.message} (fix the {{…}} token)`);
    throw error;
  }
}
