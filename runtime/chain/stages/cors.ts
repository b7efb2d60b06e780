import { ownAnswer, refusal, type Answer, type Exchange } from '../exchange/index.js';
import { OriginList, parseOrigin, requestPath } from '../../match/index.js';
import { compileProxyRules } from '../proxy/index.js';
import { afterNext, defineStage } from '../stage.js';

/** Response headers a page may read without being told (CORS-safelisted), so never listed in Expose-Headers. */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/**
 * CORS of the mocked API (http.cors, on by default): preflights are answered here, ahead of the
 * descriptions' own OPTIONS operations and of security (browsers send them without credentials),
 * allowing what they ask for unless mock.yaml narrows it; every other answer to an allowed origin,
 * refusals included, carries Access-Control-Allow-Origin and exposes the headers it has. With
 * credentials (the default) the origin is echoed with Access-Control-Allow-Credentials: true, as
 * the Fetch standard requires of a credentialed request; without, `*` stands for any origin.
 * Requests that may go to a real upstream are left as they are unless `proxied` says otherwise:
 * the upstream may be reached with credentials mock.yaml holds, which no page should borrow.
 * Requests without Origin (not CORS) cost one check: gRPC's own calls never carry one, the gRPC
 * HTTP bridge's gRPC-Web and Connect requests from pages do.
 */
export const corsStage = defineStage({ slot: 'cors', kinds: ['description', 'http', 'call'] }, ({ live, engine, settings: { cors: options, proxyRules } }) => {
  if (options === undefined) return undefined;
  const origins = new OriginList(options.allowedOrigins, 'http.cors.allowed_origins');
  const methods = options.allowedMethods?.join(', ');
  const allowedHeaders = options.allowedHeaders?.join(', ');
  const maxAge = String(options.maxAgeSeconds);
  const wildcard = origins.any && !options.credentials;
  // only the description's server forwards; a rule's pattern is enough (its condition reads the actual request, not the preflight)
  const rules = engine === undefined || options.proxied ? [] : compileProxyRules(proxyRules ?? [], 'proxy.rules', true).rules;
  const mayForward = (ex: Exchange): boolean => {
    if (engine === undefined || options.proxied) return false;
    if (live.proxying) return true;
    const path = requestPath(ex.path);
    if (live.proxy.upstream_url !== null && live.continuum.mayApply(null) && live.continuum.covers(path)) return true;
    return rules.some((rule) => rule.glob.test(path));
  };
  const allowed = (origin: string): boolean => {
    if (origins.any) return true;
    const parsed = parseOrigin(origin);
    return parsed !== undefined && origins.allows(parsed);
  };
  const originHeaders = (origin: string): Array<[string, string]> => {
    if (wildcard) return [['access-control-allow-origin', '*']];
    const headers: Array<[string, string]> = [['access-control-allow-origin', origin]];
    if (options.credentials) headers.push(['access-control-allow-credentials', 'true']);
    headers.push(['vary', 'Origin']);
    return headers;
  };

  const preflight = (ex: Exchange, origin: string, method: string): Answer => {
    // refused by mock.yaml, not by a description (and a page never sees a preflight's body): the problem body
    if (!allowed(origin)) return ownAnswer(refusal('MOCK_ERR_CORS_ORIGIN', { origin }, { headers: [['vary', 'Origin']], logged: true }));
    const headers: Array<[string, string]> = [...originHeaders(origin), ['access-control-allow-methods', methods ?? method]];
    const asked = ex.headers['access-control-request-headers'];
    const allowHeaders = allowedHeaders ?? asked;
    if (allowHeaders !== undefined && allowHeaders !== '') headers.push(['access-control-allow-headers', allowHeaders]);
    headers.push(['access-control-max-age', maxAge], ['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers']);
    return { status: 204, headers, body: '', source: 'builtin' };
  };
  const decorate = (ex: Exchange, answer: Answer): Answer => {
    const origin = ex.headers.origin;
    if (origin === undefined || (!options.proxied && ex.keptLocals?.upstream === true)) return answer;
    if (!allowed(origin)) return wildcard ? answer : { ...answer, headers: [...answer.headers, ['vary', 'Origin']] };
    const expose = [...new Set(answer.headers.map(([name]) => name.toLowerCase()).filter((name) => !SAFELISTED.has(name)))];
    const headers: Array<[string, string]> = [...answer.headers, ...originHeaders(origin)];
    if (expose.length > 0) headers.push(['access-control-expose-headers', expose.join(', ')]);
    return { ...answer, headers };
  };
  return {
    appliesTo: () => true,
    run(ex, next) {
      const origin = ex.headers.origin;
      if (origin === undefined) return next(ex);
      const method = ex.headers['access-control-request-method'];
      if (ex.method === 'OPTIONS' && method !== undefined && !mayForward(ex)) return preflight(ex, origin, method);
      return afterNext(next(ex), (answer) => decorate(ex, answer));
    },
    decorate,
  };
});
