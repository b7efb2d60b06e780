import type { GraphQLFormattedError } from 'graphql';
import { PROBLEMS, type ProblemCode } from '../../../common/errors.js';
import { graphqlCodeOf, type Answer, type Exchange } from '../../chain/exchange/index.js';
import { contentTypeOf, GRAPHQL_RESPONSE, LEGACY_JSON, negotiate, type GraphqlMediaType } from './media-types.js';

/** One error of `errors[]` with its catalogue code. */
export const graphqlError = (message: string, code: string, extra: Omit<GraphQLFormattedError, 'message' | 'extensions'> = {}): GraphQLFormattedError => ({
  message,
  ...extra,
  extensions: { code },
});

/** Whether `text` takes more than `max` bytes in UTF-8: its length decides, unless within 3× of `max` (then it is measured). */
export const overBytes = (text: string, max: number): boolean => text.length > max || (text.length * 3 > max && Buffer.byteLength(text) > max);

/** A GraphQL response (`{errors}` or `{data, errors}`) as an answer in `type`. */
export function responseAnswer(type: GraphqlMediaType, status: number, payload: unknown, headers: Array<[string, string]> = []): Answer {
  return { status, headers: [['content-type', contentTypeOf(type)], ...headers], body: JSON.stringify(payload), source: 'generated' };
}

/**
 * A request error (the document did not parse or validate, the variables were wrong): 400 in
 * application/graphql-response+json, 200 in application/json, as GraphQL over HTTP says; the
 * catalogue code is the answer's for the request log.
 */
export function requestErrorAnswer(type: GraphqlMediaType, code: ProblemCode, errors: readonly GraphQLFormattedError[]): Answer {
  const answer = responseAnswer(type, type === GRAPHQL_RESPONSE ? PROBLEMS[code].status : 200, { errors });
  return { ...answer, code, error: errors[0]?.message, source: 'refusal' };
}

/** Answers the GraphQL terminal writes are already GraphQL responses. */
const isGraphqlBody = (answer: Answer): boolean => {
  const type = answer.headers.find(([name]) => name === 'content-type')?.[1];
  return type !== undefined && (type.startsWith(GRAPHQL_RESPONSE) || type.startsWith(LEGACY_JSON));
};

/**
 * The GraphQL server's edge: an answer a stage made for HTTP (an injected fault, a rate limit, a
 * body over the limit, a failure) becomes a GraphQL response, `errors[]` with the catalogue code in
 * extensions.code, keeping its status, headers and delivery; connection faults stay what they are.
 */
export function asGraphqlAnswer(ex: Exchange, answer: Answer): Answer {
  if (isGraphqlBody(answer) || (answer.status < 400 && answer.code === undefined)) return answer;
  const type = negotiate(ex.headers.accept) ?? LEGACY_JSON;
  const message = answer.error ?? messageOf(answer);
  const headers = answer.headers.filter(([name]) => name !== 'content-type');
  return { ...answer, headers: [['content-type', contentTypeOf(type)], ...headers], body: JSON.stringify({ errors: [graphqlError(message, graphqlCodeOf(answer))] }) };
}

/** The problem body's detail, or the text the stage wrote. */
function messageOf(answer: Answer): string {
  const body = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; message?: unknown; title?: unknown };
    const text = parsed.detail ?? parsed.message ?? parsed.title;
    if (typeof text === 'string') return text;
  } catch {
    // not JSON: the text itself
  }
  return body === '' ? (answer.code === undefined ? `HTTP ${answer.status}` : PROBLEMS[answer.code].title) : body;
}
