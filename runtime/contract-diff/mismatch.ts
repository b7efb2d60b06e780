import type { ValidationIssue } from '../chain/exchange/index.js';

/** The wire ids of mismatch kinds (docs/contract-diff-analysis.md): stable once published. */
export const MISMATCH_TYPES = [
  'missing_endpoint',
  'invalid_method',
  'missing_header',
  'invalid_parameter',
  'invalid_content_type',
  'invalid_body',
  'missing_field',
  'type_mismatch',
  'unknown_field',
  'schema_mismatch',
  'undocumented_status',
] as const;
export type MismatchType = (typeof MISMATCH_TYPES)[number];

export type Severity = 'high' | 'medium' | 'low';

/**
 * high: the traffic and the description disagree on what exists (an operation, a method, a
 * required field or header, a media type) or on a value's type: a client generated from the
 * description breaks. medium: a value breaks a constraint (format, enum, pattern, bounds), a
 * parameter is wrong, a body does not parse, an answer's status is undocumented. low: a property
 * the description does not declare where it forbids others.
 */
export const SEVERITY: Record<MismatchType, Severity> = {
  missing_endpoint: 'high',
  invalid_method: 'high',
  missing_header: 'high',
  invalid_content_type: 'high',
  missing_field: 'high',
  type_mismatch: 'high',
  invalid_parameter: 'medium',
  invalid_body: 'medium',
  schema_mismatch: 'medium',
  undocumented_status: 'medium',
  unknown_field: 'low',
};

/** Where a mismatch was found. */
export type MismatchLocation = 'request.path' | 'request.method' | 'request.query' | 'request.header' | 'request.cookie' | 'request.body' | 'response.status' | 'response.header' | 'response.body';

export interface Mismatch {
  type: MismatchType;
  /** A JSON pointer into the location ('' for the whole of it): `/owner/login`, a parameter `/per_page`. */
  field: string;
  location: MismatchLocation;
  message: string;
  severity: Severity;
  /** The JSON Schema keyword (or the check) that failed: `required`, `type`, `enum`, `route`, `status`. */
  keyword: string;
}

export const mismatch = (type: MismatchType, location: MismatchLocation, field: string, keyword: string, message: string): Mismatch => ({
  type,
  field,
  location,
  message,
  severity: SEVERITY[type],
  keyword,
});

const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

const BODY_KIND: Record<string, MismatchType> = {
  required: 'missing_field',
  type: 'type_mismatch',
  additionalProperties: 'unknown_field',
  unevaluatedProperties: 'unknown_field',
  parse: 'invalid_body',
  depth: 'invalid_body',
};

// the validators name the property in their message only (validation-errors.ts: "must not have property 'x'")
const UNKNOWN_PROPERTY = /must not have property '(.*)'$/;

/** The pointer of the undeclared property itself, not of the object holding it. */
function unknownPointer(issue: ValidationIssue): string {
  const property = UNKNOWN_PROPERTY.exec(issue.message)?.[1];
  return property === undefined ? issue.name : `${issue.name}/${escapePointer(property)}`;
}

/** A validation issue of the project's validators as a mismatch on the request or the response side. */
export function fromIssue(issue: ValidationIssue, side: 'request' | 'response'): Mismatch {
  if (issue.location === 'body') {
    const type = BODY_KIND[issue.keyword] ?? 'schema_mismatch';
    return mismatch(type, `${side}.body`, type === 'unknown_field' ? unknownPointer(issue) : issue.name, issue.keyword, issue.message);
  }
  const location = `request.${issue.location}` as MismatchLocation;
  const type = issue.location === 'header' && issue.keyword === 'required' ? 'missing_header' : 'invalid_parameter';
  return mismatch(type, location, issue.name === '' ? '' : `/${escapePointer(issue.name)}`, issue.keyword, issue.message);
}
