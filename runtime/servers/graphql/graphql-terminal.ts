import { createHash } from 'node:crypto';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import type { ProblemCode } from '../../../common/errors.js';
import { PROBLEMS } from '../../../common/errors.js';
import { reusedAnswer, type Answer, type Exchange, type GraphqlOperation } from '../../chain/exchange/index.js';
import type { Next } from '../../chain/index.js';
import type { ProtocolLog } from '../../control/logging/index.js';
import type { GraphqlEngine, Refused } from '../../terminal/graphql/index.js';
import { graphqlError, overBytes, requestErrorAnswer, responseAnswer } from './graphql-answer.js';
import { ACCEPTED_TYPES, GRAPHQL_RESPONSE, negotiate, type GraphqlMediaType } from './media-types.js';
import { paramsOf, sentParamsOf } from './request-params.js';

/** A GraphQL exchange's part of its request-log entry: the operation that ran; none (a request refused before one did): the HTTP part. */
export function describeOperation(ex: Exchange): ProtocolLog | undefined {
  const operation = ex.keptLocals?.graphql;
  return operation === undefined ? undefined : { graphql: { operation_name: operation.name, operation_type: operation.type } };
}

const REFUSED_CODE: Record<Refused['stage'], ProblemCode> = {
  parse: 'MOCK_ERR_GRAPHQL_PARSE',
  validation: 'MOCK_ERR_GRAPHQL_VALIDATION',
  operation: 'MOCK_ERR_GRAPHQL_OPERATION',
};

/**
 * Errors keep their locations and path. A request error's extensions.code is the catalogue's for
 * its stage unless the engine named one of the mock's own limits; a field error keeps the engine's
 * code (NOT_FOUND for an object a mutation deleted), else MOCK_ERR_INTERNAL.
 */
function formatted(errors: readonly GraphQLError[], code: string, keepEngineCodes = false): GraphQLFormattedError[] {
  return errors.map((error) => {
    const json = error.toJSON();
    const own = json.extensions?.code;
    const kept = typeof own === 'string' && (keepEngineCodes || own.startsWith('MOCK_ERR_'));
    return { ...json, extensions: { ...json.extensions, code: kept ? own : code } };
  });
}

/** A query's answer kept by the engine's answer cache (one object, given again as it is), and its operation for the request log and statistics. */
interface KeptAnswer {
  answer: Answer;
  name: string | null;
}

const HIT: [string, string] = ['x-mock-cache', 'hit'];
const MISS: [string, string] = ['x-mock-cache', 'miss'];
/** What a kept answer holds besides its body: the answer object and its two headers. */
const HEAD_BYTES = 256;

/** Answer-cache keys longer than this are their SHA-1: the budget counts keys, and a Map hashes a long key whole on every lookup. */
const KEY_TEXT_LIMIT = 1024;

/** The answer's key: its media type and the parameters as sent (hashed keys start with `#`, others never do). */
function answerKey(type: GraphqlMediaType, sent: string): string {
  const key = (type === GRAPHQL_RESPONSE ? 'g' : 'j') + sent;
  return key.length > KEY_TEXT_LIMIT ? `#${createHash('sha1').update(key, 'latin1').digest('base64')}` : key;
}

/**
 * GraphQL over HTTP, after the chain's stages: negotiate the media type, read the parameters,
 * prepare the document (parsed, validated and compiled once per text), refuse what the
 * specification refuses with its status, and execute. An answer over `maxResponseBytes` (as
 * JSON) is replaced by MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE: the limits before execution bound
 * what a document selects, not how large the schema's introspection or the lists make it.
 *
 * A query's answer without errors is kept by the engine (graphql.answer_cache_bytes) under the
 * parameters as sent and the media type, and the next identical request is answered from it
 * before anything is parsed, while nothing it was computed from changed (engine.keptAnswer):
 * `X-Mock-Cache: miss` on the answer that filled the entry, `hit` on those given from it, as
 * response.caching marks the HTTP mock's. The stages around the terminal (chaos, latency, the
 * recorder, the request log, statistics) see every request alike.
 */
export function graphqlTerminal(engine: () => GraphqlEngine, path: string, maxResponseBytes: number): Next {
  return (ex: Exchange): Answer | Promise<Answer> => {
    const type = negotiate(ex.headers.accept);
    if (type === null) {
      const detail = PROBLEMS.MOCK_ERR_NOT_ACCEPTABLE.detail({ method: ex.method, path: ex.path, types: ['application/graphql-response+json', 'application/json'], accept: ex.headers.accept });
      return { ...responseAnswer('application/json', 406, { errors: [graphqlError(detail, 'MOCK_ERR_NOT_ACCEPTABLE')] }, [['accept', ACCEPTED_TYPES]]), code: 'MOCK_ERR_NOT_ACCEPTABLE', error: detail };
    }
    if (ex.route === null) return refused(type, 'MOCK_ERR_GRAPHQL_PATH', PROBLEMS.MOCK_ERR_GRAPHQL_PATH.detail({ method: ex.method, path: ex.path, served: path }), 404);
    const mock = engine();
    const sent = mock.cachesAnswers ? sentParamsOf(ex) : undefined;
    const key = sent === undefined ? undefined : answerKey(type, sent);
    if (key !== undefined) {
      const kept = mock.keptAnswer<KeptAnswer>(key);
      if (kept !== undefined) {
        ex.locals.graphql = { name: kept.name, type: 'query' };
        return kept.answer;
      }
    }
    const params = paramsOf(ex);
    if ('reason' in params) {
      if (params.status === 405) return refused(type, 'MOCK_ERR_METHOD_NOT_ALLOWED', PROBLEMS.MOCK_ERR_METHOD_NOT_ALLOWED.detail({ method: ex.method, path: ex.path, allow: 'GET, POST' }), 405, [['allow', 'GET, POST']]);
      if (params.status === 415) return refused(type, 'MOCK_ERR_GRAPHQL_MEDIA_TYPE', PROBLEMS.MOCK_ERR_GRAPHQL_MEDIA_TYPE.detail({ type: ex.headers['content-type'] }), 415);
      return refused(type, 'MOCK_ERR_GRAPHQL_BAD_REQUEST', PROBLEMS.MOCK_ERR_GRAPHQL_BAD_REQUEST.detail({ reason: params.reason }), 400);
    }
    const prepared = mock.prepare(params.query, params.operationName);
    if (!prepared.ok) {
      const code = REFUSED_CODE[prepared.stage];
      return requestErrorAnswer(type, code, formatted(prepared.errors, code));
    }
    const operation: GraphqlOperation = { name: prepared.operationName, type: prepared.operationType };
    ex.locals.graphql = operation;
    if (prepared.operationType === 'subscription') {
      return requestErrorAnswer(type, 'MOCK_ERR_GRAPHQL_SUBSCRIPTION_OVER_HTTP', [graphqlError(PROBLEMS.MOCK_ERR_GRAPHQL_SUBSCRIPTION_OVER_HTTP.detail({ path }), 'MOCK_ERR_GRAPHQL_SUBSCRIPTION_OVER_HTTP')]);
    }
    if (prepared.operationType === 'mutation' && ex.method === 'GET') {
      return refused(type, 'MOCK_ERR_GRAPHQL_MUTATION_OVER_GET', PROBLEMS.MOCK_ERR_GRAPHQL_MUTATION_OVER_GET.detail({ name: prepared.operationName }), 405, [['allow', 'POST']]);
    }
    const capped = (answer: Answer): Answer => {
      if (!overBytes(answer.body as string, maxResponseBytes)) return answer;
      operation.errors = true;
      const code = 'MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE';
      return requestErrorAnswer(type, code, [graphqlError(PROBLEMS[code].detail({ max: maxResponseBytes }), code)]);
    };
    const executed = (result: ExecutionResult & { variablesRejected?: boolean }, keepAs: string | undefined): Answer => {
      if (result.variablesRejected === true) return requestErrorAnswer(type, 'MOCK_ERR_GRAPHQL_VARIABLES', formatted(result.errors ?? [], 'MOCK_ERR_GRAPHQL_VARIABLES'));
      if (result.errors === undefined || result.errors.length === 0) {
        const answer = capped(responseAnswer(type, 200, result));
        if (keepAs === undefined || answer.code !== undefined) return answer;
        const body = Buffer.from(answer.body as string);
        const hit = reusedAnswer({ ...answer, body, headers: [...answer.headers, HIT] });
        if (!mock.keepAnswer(keepAs, { answer: hit, name: operation.name } satisfies KeptAnswer, body.byteLength + HEAD_BYTES)) return answer;
        return { ...answer, body, headers: [...answer.headers, MISS] };
      }
      operation.errors = true;
      return capped({ ...responseAnswer(type, 200, { errors: formatted(result.errors, 'MOCK_ERR_INTERNAL', true), data: result.data }), error: result.errors[0]?.message });
    };
    const result = prepared.execute(params.variables);
    // only a query answered at once is kept: keepAnswer checks the state of this request's lookup
    if (result instanceof Promise) return result.then((done) => executed(done, undefined));
    return executed(result, prepared.operationType === 'query' ? key : undefined);
  };
}

/** A refusal before GraphQL ran: the status it calls for in either media type (these are not GraphQL request errors). */
function refused(type: GraphqlMediaType, code: ProblemCode, message: string, status: number, headers: Array<[string, string]> = []): Answer {
  return { ...responseAnswer(type, status, { errors: [graphqlError(message, code)] }, headers), code, error: message };
}
