import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import type { ProblemCode } from '../../../common/errors.js';
import { PROBLEMS } from '../../../common/errors.js';
import type { Answer, Exchange, GraphqlOperation } from '../../chain/exchange/index.js';
import type { Next } from '../../chain/index.js';
import type { ProtocolLog } from '../../control/logging/index.js';
import type { GraphqlEngine, Refused } from '../../terminal/graphql/index.js';
import { graphqlError, overBytes, requestErrorAnswer, responseAnswer } from './graphql-answer.js';
import { ACCEPTED_TYPES, negotiate, type GraphqlMediaType } from './media-types.js';
import { paramsOf } from './request-params.js';

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

/**
 * GraphQL over HTTP, after the chain's stages: negotiate the media type, read the parameters,
 * prepare the document (parsed, validated and compiled once per text), refuse what the
 * specification refuses with its status, and execute. An answer over `maxResponseBytes` (as
 * JSON) is replaced by MOCK_ERR_GRAPHQL_RESPONSE_TOO_LARGE: the limits before execution bound
 * what a document selects, not how large the schema's introspection or the lists make it.
 */
export function graphqlTerminal(engine: () => GraphqlEngine, path: string, maxResponseBytes: number): Next {
  return (ex: Exchange): Answer | Promise<Answer> => {
    const type = negotiate(ex.headers.accept);
    if (type === null) {
      const detail = PROBLEMS.MOCK_ERR_NOT_ACCEPTABLE.detail({ method: ex.method, path: ex.path, types: ['application/graphql-response+json', 'application/json'], accept: ex.headers.accept });
      return { ...responseAnswer('application/json', 406, { errors: [graphqlError(detail, 'MOCK_ERR_NOT_ACCEPTABLE')] }, [['accept', ACCEPTED_TYPES]]), code: 'MOCK_ERR_NOT_ACCEPTABLE', error: detail };
    }
    if (ex.route === null) return refused(type, 'MOCK_ERR_GRAPHQL_PATH', PROBLEMS.MOCK_ERR_GRAPHQL_PATH.detail({ method: ex.method, path: ex.path, served: path }), 404);
    const params = paramsOf(ex);
    if ('reason' in params) {
      if (params.status === 405) return refused(type, 'MOCK_ERR_METHOD_NOT_ALLOWED', PROBLEMS.MOCK_ERR_METHOD_NOT_ALLOWED.detail({ method: ex.method, path: ex.path, allow: 'GET, POST' }), 405, [['allow', 'GET, POST']]);
      if (params.status === 415) return refused(type, 'MOCK_ERR_GRAPHQL_MEDIA_TYPE', PROBLEMS.MOCK_ERR_GRAPHQL_MEDIA_TYPE.detail({ type: ex.headers['content-type'] }), 415);
      return refused(type, 'MOCK_ERR_GRAPHQL_BAD_REQUEST', PROBLEMS.MOCK_ERR_GRAPHQL_BAD_REQUEST.detail({ reason: params.reason }), 400);
    }
    const prepared = engine().prepare(params.query, params.operationName);
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
    const executed = (result: ExecutionResult & { variablesRejected?: boolean }): Answer => {
      if (result.variablesRejected === true) return requestErrorAnswer(type, 'MOCK_ERR_GRAPHQL_VARIABLES', formatted(result.errors ?? [], 'MOCK_ERR_GRAPHQL_VARIABLES'));
      if (result.errors === undefined || result.errors.length === 0) return capped(responseAnswer(type, 200, result));
      operation.errors = true;
      return capped({ ...responseAnswer(type, 200, { errors: formatted(result.errors, 'MOCK_ERR_INTERNAL', true), data: result.data }), error: result.errors[0]?.message });
    };
    const result = prepared.execute(params.variables);
    return result instanceof Promise ? result.then(executed) : executed(result);
  };
}

/** A refusal before GraphQL ran: the status it calls for in either media type (these are not GraphQL request errors). */
function refused(type: GraphqlMediaType, code: ProblemCode, message: string, status: number, headers: Array<[string, string]> = []): Answer {
  return { ...responseAnswer(type, status, { errors: [graphqlError(message, code)] }, headers), code, error: message };
}
