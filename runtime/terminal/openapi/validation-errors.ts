import type { AjvError, Validate } from '../../../common/contract/index.js';
import { isStackOverflow } from '../../../common/json-depth.js';
import type { ValidationIssue } from '../../chain/exchange/index.js';

/** Parameter errors: instancePath is /<location>/<name>/... */
export function paramIssues(errors: AjvError[]): ValidationIssue[] {
  return errors.map((e) => {
    const [, location = '', name = '', ...rest] = e.instancePath.split('/');
    const missing = e.keyword === 'required' ? String(e.params.missingProperty ?? '') : '';
    const param = unescape(name) || missing;
    const inner = rest.length > 0 ? `/${rest.join('/')}` : '';
    const what = e.keyword === 'required' && name === '' ? 'is required' : describe(e);
    return { location, name: param, message: `${location} parameter '${param}'${inner ? ` at ${inner}` : ''} ${what}`, keyword: e.keyword };
  });
}

/**
 * Validates a body into `issues`. The validators of a schema that references itself recurse once
 * per level of the value: one nested deeper than the stack holds is an issue of its own (400 in
 * enforce mode), not a 500.
 */
export function validateBody(validate: Validate, value: unknown, issues: ValidationIssue[], what = 'request body'): void {
  try {
    if (!validate(value)) issues.push(...bodyIssues(validate.errors ?? []));
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    issues.push({ location: 'body', name: '', message: `${what} nests too deeply to validate; send a flatter one`, keyword: 'depth' });
  }
}

export function bodyIssues(errors: AjvError[]): ValidationIssue[] {
  return errors.map((e) => {
    const pointer = e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty ?? '')}` : e.instancePath;
    return { location: 'body', name: pointer, message: `body${e.instancePath ? ` ${e.instancePath}` : ''} ${describe(e)}`, keyword: e.keyword };
  });
}

function describe(e: AjvError): string {
  if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) return `must be one of ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'additionalProperties') return `must not have property '${String(e.params.additionalProperty)}'`;
  return e.message ?? `fails ${e.keyword}`;
}

const unescape = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
