/** The media types a GraphQL answer may have (GraphQL over HTTP, "Accept"). */
export type GraphqlMediaType = 'application/graphql-response+json' | 'application/json';

export const GRAPHQL_RESPONSE = 'application/graphql-response+json';
export const LEGACY_JSON = 'application/json';

/** The Accept of a 406: what this server can answer. */
export const ACCEPTED_TYPES = `${GRAPHQL_RESPONSE}; charset=utf-8, ${LEGACY_JSON}; charset=utf-8`;

/**
 * The media type to answer in: the acceptable one with the highest q (ties to the newer
 * application/graphql-response+json), application/json when Accept is absent (older clients send
 * none), null when Accept allows neither (406). Only UTF-8 is ever written.
 */
export function negotiate(accept: string | undefined): GraphqlMediaType | null {
  if (accept === undefined || accept.trim() === '') return LEGACY_JSON;
  // clients send the same Accept on every request
  if (accept === lastAccept) return lastType;
  lastType = negotiated(accept);
  lastAccept = accept;
  return lastType;
}

let lastAccept: string | undefined;
let lastType: GraphqlMediaType | null = null;

function negotiated(accept: string): GraphqlMediaType | null {
  let best: GraphqlMediaType | null = null;
  let bestQ = 0;
  for (const range of accept.split(',')) {
    const [rawType = '', ...params] = range.split(';');
    const type = rawType.trim().toLowerCase();
    let q = 1;
    let utf8 = true;
    for (const param of params) {
      const [name = '', value = ''] = param.split('=').map((part) => part.trim().toLowerCase());
      if (name === 'q') q = Number(value);
      else if (name === 'charset') utf8 = value === 'utf-8' || value === 'utf8';
    }
    if (!utf8 || !(q > 0)) continue;
    const offered: GraphqlMediaType | null = type === GRAPHQL_RESPONSE ? GRAPHQL_RESPONSE : type === LEGACY_JSON || type === 'application/*' || type === '*/*' ? LEGACY_JSON : null;
    if (offered === null) continue;
    if (q > bestQ || (q === bestQ && offered === GRAPHQL_RESPONSE)) {
      best = offered;
      bestQ = q;
    }
  }
  return best;
}

/** The content-type header of an answer in `type`. */
export const contentTypeOf = (type: GraphqlMediaType): string => `${type}; charset=utf-8`;
