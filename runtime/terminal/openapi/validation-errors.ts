import type { AjvError } from '../../../common/contract/index.js';
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
