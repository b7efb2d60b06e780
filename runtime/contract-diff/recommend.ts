import type { MismatchLocation, MismatchType } from './mismatch.js';

/**
 * Observations of an operation before a recommendation is called likely: below it, confidence is
 * scaled down by how far the sample falls short, so one capture never reads as certainty.
 */
export const MIN_SAMPLE = 5;

/** The share of an operation's captures that agree, scaled down below MIN_SAMPLE (0–1, two decimals). */
export function confidenceOf(agree: number, observations: number): number {
  if (observations === 0) return 0;
  const share = agree / observations;
  return Math.round(share * Math.min(1, observations / MIN_SAMPLE) * 100) / 100;
}

/** Likely: enough observations, and most of them agree. */
export const isLikely = (agree: number, observations: number): boolean => observations >= MIN_SAMPLE && agree * 2 >= observations;

interface Subject {
  operation: string;
  type: MismatchType;
  location: MismatchLocation;
  field: string;
  keyword: string;
}

/** A path as the description's paths write it: without the base path it is served under. */
function described(path: string, basePaths: readonly string[]): string {
  const base = basePaths.filter((b) => b !== '' && path.startsWith(`${b}/`)).sort((a, b) => b.length - a.length)[0];
  return base === undefined ? path : `${path.slice(base.length)} (under ${base})`;
}

const where = (s: Subject): string => `${s.location}${s.field === '' ? '' : ` ${s.field}`}`;

/** What to change in the description so that it accepts what was observed (or what to fix in the client). */
export function suggestedFix(s: Subject, basePaths: readonly string[]): string {
  const name = s.field.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
  const [method, ...rest] = s.operation.split(' ');
  const path = described(rest.join(' '), basePaths);
  switch (s.type) {
    case 'missing_endpoint':
      return `add the path ${path} with a ${method.toLowerCase()} operation to paths, or stop calling it`;
    case 'invalid_method':
      return `add a ${method.toLowerCase()} operation to the path ${path}, or stop calling it with ${method}`;
    case 'missing_header':
      return `make the header '${name}' optional (required: false) for ${s.operation}, or send it`;
    case 'missing_field':
      return s.field === '' ? `make the request body of ${s.operation} optional (requestBody.required: false)` : `remove '${name}' from the required list of the schema at ${where(s)}`;
    case 'type_mismatch':
      return `widen the type of ${where(s)} to the type observed (for example type: [string, integer] or a oneOf)`;
    case 'unknown_field':
      return `declare the property observed in the schema at ${where(s)}, or allow additionalProperties`;
    case 'invalid_parameter':
      return `relax the schema of the ${s.location.slice('request.'.length)} parameter '${name}' (${s.keyword}) of ${s.operation}, or declare it`;
    case 'invalid_content_type':
      return `document the media type observed at ${where(s)} of ${s.operation}`;
    case 'invalid_body':
      return `check that clients of ${s.operation} send a body of the media type they declare`;
    case 'undocumented_status':
      return `document the status observed as a response of ${s.operation}`;
    case 'schema_mismatch':
      return `relax the '${s.keyword}' constraint of the schema at ${where(s)}`;
  }
}
