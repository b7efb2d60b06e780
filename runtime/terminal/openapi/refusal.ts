import type { ContentEntry, OperationResponders, ResponseEntry } from '../../../common/contract/index.js';
import type { Answer, Exchange } from '../../chain/exchange/index.js';
import type { ErrorBody } from '../../serve-options.js';
import { findResponse } from './find-response.js';
import type { ContentNegotiation } from './negotiate.js';
import { preferredErrorBody, readPreference } from './prefer.js';
import { ownAnswer, refusalMarks, type Refusal } from '../../chain/exchange/index.js';

/** Makes the answer of a documented response as a normal answer of it is made: the example named `example` when it has one, else its first valid example, else generated data (no content: no body). */
export type RenderResponse = (ex: Exchange, status: number, response: ResponseEntry, content: ContentEntry | null, example: string | undefined) => Answer;

/** Whether a value matches the schema of a documented content (true when it has none). */
export type Conforms = (content: ContentEntry, value: unknown) => boolean;

const PROBLEM_JSON = /^application\/problem\+json\s*(;|$)/i;

/**
 * Refusals in the description's own words (validation.error_body: documented). A request refused
 * by validation (400/422), security (401/403), content negotiation (406) or its content type (415)
 * is answered with the response its operation documents for that status (the exact code, then its
 * range such as `4XX`, then `default`), chosen like a normal answer of that response, because that
 * is the shape the API's clients parse; the status stays the refusal's. An example the request
 * names (`Prefer: example=`, `__example`) is that response's when it documents one by the name
 * (as Prism does), else the name is ignored: it is most likely a success example's. mock's own answer (the
 * problem body; the spec's shape for 401/403) goes out when nothing documented fits (no such
 * response, or none of its media types is acceptable), when no operation was matched (404, 405),
 * with error_body: problem, or when the request says `Prefer: error-body=problem`. Every refusal
 * carries X-Mock-Error-Code and X-Mock-Error-Detail, and keeps its own headers other than its
 * content type (Allow, WWW-Authenticate). Only refused requests come here: valid ones pay nothing.
 */
export class Refusals {
  constructor(
    private readonly operations: OperationResponders[],
    /** Per operation and response its media types: the engine's arrays, which the negotiation cache keys on. */
    private readonly offered: string[][][],
    private readonly negotiation: ContentNegotiation,
    private readonly render: RenderResponse,
    private readonly conforms: Conforms,
  ) {}

  /** `index`: the operation the refused request was routed to; undefined when none was (404, 405). */
  answer(ex: Exchange, index: number | undefined, refusal: Refusal, setting: ErrorBody = 'documented'): Answer {
    const preferred = preferredErrorBody(ex.headers.prefer);
    if (index === undefined || (preferred ?? setting) === 'problem') return ownAnswer(refusal, preferred === 'problem');
    const own = refusal.answer;
    const table = this.operations[index];
    const ri = findResponse(table.responses, String(own.status));
    if (ri === -1) return ownAnswer(refusal, false);
    const response = table.responses[ri];
    let content: ContentEntry | null = null;
    if (response.contents.length > 0) {
      const ci = this.negotiation.choose(this.offered[index][ri], ex.headers.accept);
      if (ci === -1) return ownAnswer(refusal, false);
      content = response.contents[ci];
    }
    if (content !== null && this.speaksProblem(content, own)) return ownAnswer(refusal, false);
    const documented = this.render(ex, own.status, response, content, readPreference(ex.headers.prefer, ex.query).example);
    const headers = [...documented.headers, ...own.headers.filter(([name]) => name !== 'content-type'), ...refusalMarks(refusal)];
    if (preferred === 'documented') headers.push(['preference-applied', 'error-body=documented']);
    // the documented body, but still a refusal for the log, its filters and the metrics
    return { ...documented, headers, code: refusal.code, detail: refusal.detail, source: own.source, ...(own.error === undefined ? {} : { error: own.error }) };
  }

  /**
   * The description documents RFC 9457 problem details without an example of its own, and mock's
   * problem body fits its schema: that body is in the description's words, and it says what was
   * wrong where data generated from the schema could only fill the fields with words.
   */
  private speaksProblem(content: ContentEntry, own: Answer): boolean {
    if (content.preferred >= 0 || !PROBLEM_JSON.test(content.type) || typeof own.body !== 'string') return false;
    const type = own.headers.find(([name]) => name === 'content-type')?.[1];
    return type !== undefined && PROBLEM_JSON.test(type) && this.conforms(content, JSON.parse(own.body));
  }
}
