import type { Description } from '../chain/description.js';
import { Exchange } from '../chain/exchange/index.js';
import { bodyBytes, exchangeInit, responseContentType, type Capture } from './capture.js';
import { fromIssue, mismatch, type Mismatch } from './mismatch.js';

/** One capture held against the description. */
export interface CaptureAnalysis {
  capture_id: string | null;
  method: string;
  path: string;
  /** The operation it routed to (`GET /repos/{owner}/{repo}`); null when none has its path or method. */
  operation: string | null;
  mismatches: Mismatch[];
}

/** An observed answer, as the answer check reads it. */
export interface ObservedAnswer {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

/**
 * What a routed exchange (and its answer, when known) breaks of the description, with the
 * server's own validators: the router's verdict, the request validation the terminal runs
 * (Exchange.validated(), computed once whoever asks first) and the answer check.
 */
export function mismatchesOf(description: Description, ex: Exchange, answer: ObservedAnswer | undefined): { operation: string | null; mismatches: Mismatch[] } {
  const { match } = ex;
  if (match.kind === 'none' || match.kind === 'custom')
    return { operation: null, mismatches: [mismatch('missing_endpoint', 'request.path', '', 'route', `no operation of the description has the path ${ex.path}${mountHint(description, ex.path)}`)] };
  if (match.kind === 'method')
    return { operation: null, mismatches: [mismatch('invalid_method', 'request.method', '', 'method', `${ex.method} is not an operation of ${ex.path} (it has ${match.allow})`)] };
  const mismatches: Mismatch[] = [];
  const checked = ex.validated();
  for (const issue of checked.issues) mismatches.push(fromIssue(issue, 'request'));
  const unsupported = checked.unsupportedType;
  if (unsupported !== undefined) {
    const accepted = unsupported.accepted.length > 0 ? `it accepts ${unsupported.accepted.join(', ')}` : 'it takes no body';
    mismatches.push(mismatch('invalid_content_type', 'request.header', '/content-type', 'content-type', `request content type ${unsupported.given ?? '(none)'} is not accepted (${accepted})`));
  }
  if (answer !== undefined) answerMismatches(description, match.index, answer, mismatches);
  return { operation: description.build.operations[match.index].key, mismatches };
}

/** The servers' base paths, when the path is outside all of them: the usual reason nothing matches. */
function mountHint(description: Description, path: string): string {
  const bases = description.build.specs.map((s) => s.basePath).filter((b) => b !== '');
  return bases.length === 0 || bases.some((b) => path.startsWith(b)) ? '' : ` (the description is mounted under ${bases.join(', ')})`;
}

function answerMismatches(description: Description, index: number, answer: ObservedAnswer, out: Mismatch[]): void {
  const check = description.checkAnswer(index, answer.status, answer.contentType, answer.body);
  if (check.code === null) {
    out.push(mismatch('undocumented_status', 'response.status', '', 'status', `status ${answer.status} is not documented (the operation documents ${check.codes.join(', ') || 'none'})`));
    return;
  }
  if (check.type === null) {
    if (answer.body.byteLength > 0 && check.types.length > 0) {
      out.push(
        mismatch(
          'invalid_content_type',
          'response.header',
          '/content-type',
          'content-type',
          `response content type ${answer.contentType ?? '(none)'} is not documented for ${check.code} (it documents ${check.types.join(', ')})`,
        ),
      );
    }
    return;
  }
  for (const issue of check.issues) out.push(fromIssue(issue, 'response'));
}

/**
 * Holds captures against a description with the server's own router and validators (the OpenAPI
 * engine of a build): what the running mock would refuse or flag is what drifts here, and nothing else.
 */
export class CaptureAnalyzer {
  constructor(private readonly engine: Description & { route(ex: Exchange): void }) {}

  /** The descriptions' base paths (`/v2`), for Aggregate. */
  get basePaths(): string[] {
    return this.engine.build.specs.map((s) => s.basePath).filter((b) => b !== '');
  }

  analyze(capture: Capture): CaptureAnalysis {
    const init = exchangeInit(capture);
    const ex = new Exchange(init);
    this.engine.route(ex);
    const response = capture.response;
    const answer = response === undefined ? undefined : { status: response.status, contentType: responseContentType(response), body: bodyBytes(response.body) ?? Buffer.alloc(0) };
    const { operation, mismatches } = mismatchesOf(this.engine, ex, answer);
    return { capture_id: capture.id ?? null, method: capture.method, path: init.path, operation, mismatches };
  }
}
