import { Exchange } from '../chain/exchange/index.js';
import type { Engine } from '../terminal/openapi/index.js';
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

/**
 * Holds captures against a description with the server's own router and validators (the Engine
 * of a build): what the running mock would refuse or flag is what drifts here, and nothing else.
 */
export class CaptureAnalyzer {
  constructor(private readonly engine: Engine) {}

  analyze(capture: Capture): CaptureAnalysis {
    const init = exchangeInit(capture);
    const ex = new Exchange(init);
    this.engine.route(ex);
    const result: CaptureAnalysis = { capture_id: capture.id ?? null, method: capture.method, path: init.path, operation: null, mismatches: [] };
    const { match } = ex;
    if (match.kind === 'none' || match.kind === 'custom') {
      result.mismatches.push(mismatch('missing_endpoint', 'request.path', '', 'route', `no operation of the description has the path ${init.path}${this.mountHint(init.path)}`));
      return result;
    }
    if (match.kind === 'method') {
      result.mismatches.push(mismatch('invalid_method', 'request.method', '', 'method', `${capture.method} is not an operation of ${init.path} (it has ${match.allow})`));
      return result;
    }
    result.operation = this.engine.build.operations[match.index].key;
    const checked = ex.validated();
    for (const issue of checked.issues) result.mismatches.push(fromIssue(issue, 'request'));
    const unsupported = checked.unsupportedType;
    if (unsupported !== undefined) {
      const accepted = unsupported.accepted.length > 0 ? `it accepts ${unsupported.accepted.join(', ')}` : 'it takes no body';
      result.mismatches.push(
        mismatch('invalid_content_type', 'request.header', '/content-type', 'content-type', `request content type ${unsupported.given ?? '(none)'} is not accepted (${accepted})`),
      );
    }
    if (capture.response !== undefined) this.answer(match.index, capture, result.mismatches);
    return result;
  }

  /** The servers' base paths, when the path is outside all of them: the usual reason nothing matches. */
  private mountHint(path: string): string {
    const bases = this.engine.build.specs.map((s) => s.basePath).filter((b) => b !== '');
    return bases.length === 0 || bases.some((b) => path.startsWith(b)) ? '' : ` (the description is mounted under ${bases.join(', ')})`;
  }

  private answer(index: number, capture: Capture, out: Mismatch[]): void {
    const response = capture.response!;
    const body = bodyBytes(response.body) ?? Buffer.alloc(0);
    const contentType = responseContentType(response);
    const check = this.engine.checkAnswer(index, response.status, contentType, body);
    if (check.code === null) {
      out.push(mismatch('undocumented_status', 'response.status', '', 'status', `status ${response.status} is not documented (the operation documents ${check.codes.join(', ') || 'none'})`));
      return;
    }
    if (check.type === null) {
      if (body.byteLength > 0 && check.types.length > 0)
        out.push(
          mismatch(
            'invalid_content_type',
            'response.header',
            '/content-type',
            'content-type',
            `response content type ${contentType ?? '(none)'} is not documented for ${check.code} (it documents ${check.types.join(', ')})`,
          ),
        );
      return;
    }
    for (const issue of check.issues) out.push(fromIssue(issue, 'response'));
  }
}
