import type { AjvError, OperationMeta, ParamMeta, Validate } from '../../../common/contract/index.js';
import { ReservedKeyError } from '../../../common/reserved-keys.js';
import { parseCookies } from '../../chain/exchange/index.js';
import { readParam, type ParamSources } from './param-styles.js';
import type { ValidationIssue } from '../../chain/exchange/index.js';
import { paramIssues } from './validation-errors.js';

type Params = Record<string, Record<string, unknown>>;

/**
 * Hot path: an operation's parameters read from the request, coerced to their schema types and
 * checked against its validator; issues is undefined when there are none.
 */
export function checkParams(op: OperationMeta, validate: Validate, path: Record<string, string>, query: ReadonlyMap<string, string[]>, headers: Record<string, string>): { params: Params; issues: ValidationIssue[] | undefined } {
  const params: Params = { path: {}, query: {}, header: {}, cookie: {} };
  let cookies: Record<string, string> | undefined;
  const sources: ParamSources = { path, query, headers, cookies: () => (cookies ??= parseCookies(headers.cookie)), queryNames: () => queryNamesOf(op) };
  let issues: ValidationIssue[] | undefined;
  for (const p of op.params) {
    let value: unknown;
    try {
      value = readParam(p, sources);
    } catch (e) {
      if (!(e instanceof ReservedKeyError)) throw e;
      (issues ??= []).push({ location: p.in, name: p.name, message: e.message, keyword: 'reservedKey' });
      continue;
    }
    if (value === undefined) continue;
    params[p.in][p.name] = value;
    if (p.in === 'query' && p.allowEmptyValue !== true && sentEmpty(p, query)) (issues ??= []).push(emptyValue(p));
  }
  if (validate(params) || readAnotherWay(op, params, validate, sources)) return { params, issues };
  return { params, issues: [...(issues ?? []), ...paramIssues(validate.errors ?? [])] };
}

/** Styles in which an empty value has no serialisation, so allowEmptyValue does not apply (OpenAPI 3: "n/a"). */
const NO_EMPTY_FORM = new Set(['spaceDelimited', 'pipeDelimited', 'deepObject']);

/** `?id=` or `?id`: a query parameter sent without a value. */
function sentEmpty(p: ParamMeta, query: ReadonlyMap<string, string[]>): boolean {
  return query.get(p.name)?.includes('') === true && !NO_EMPTY_FORM.has(p.style);
}

function emptyValue(p: ParamMeta): ValidationIssue {
  return { location: 'query', name: p.name, message: `query parameter '${p.name}' must not be empty (its allowEmptyValue is false)`, keyword: 'allowEmptyValue' };
}

/**
 * A parameter whose schema has alternatives of different shapes (GitHub's `has`: a string, or an
 * array of names) is first read for the alternative that wants structure. When validation fails
 * on it, it is read again as each alternative in turn, as validation tries every member of the
 * union, and the first reading that clears its errors is kept. Only requests that fail pay for it.
 * Leaves `validate.errors` describing the readings kept; true when they are all valid.
 */
function readAnotherWay(op: OperationMeta, params: Params, validate: Validate, sources: ParamSources): boolean {
  let errors = validate.errors ?? [];
  for (const p of op.params) {
    const shape = p.shape;
    if (shape === undefined || typeof shape === 'string' || !('oneOf' in shape) || !concerns(errors, p)) continue;
    const holder = params[p.in];
    const first = holder[p.name];
    if (first === undefined) continue;
    let kept = false;
    const repeated = p.in === 'query' && (sources.query.get(p.name)?.length ?? 0) > 1;
    for (const branch of shape.oneOf) {
      // one of several values of a repeated key is no reading of them all
      if (repeated && typeof branch === 'string' && branch !== 'array') continue;
      const value = readBranch({ ...p, shape: branch }, sources);
      if (value === undefined) continue;
      holder[p.name] = value;
      if (validate(params)) return true;
      const next = validate.errors ?? [];
      if (!concerns(next, p)) {
        errors = next;
        kept = true;
        break;
      }
    }
    if (!kept) holder[p.name] = first;
  }
  // the errors of the readings kept, not of the last one tried
  if (validate.errors !== errors) validate(params);
  return false;
}

/** Another reading of a parameter; one that meets a reserved key does not fit (the first reading reported it). */
function readBranch(p: ParamMeta, sources: ParamSources): unknown {
  try {
    return readParam(p, sources);
  } catch (e) {
    if (e instanceof ReservedKeyError) return undefined;
    throw e;
  }
}

/** Whether some error is about parameter `p` (Ajv's instancePath is /<location>/<name>/…). */
function concerns(errors: AjvError[], p: ParamMeta): boolean {
  const at = `/${p.in}/${p.name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return errors.some((e) => e.instancePath === at || e.instancePath.startsWith(`${at}/`));
}

const queryNames = new WeakMap<OperationMeta, ReadonlySet<string>>();

function queryNamesOf(op: OperationMeta): ReadonlySet<string> {
  let names = queryNames.get(op);
  if (names === undefined) queryNames.set(op, (names = new Set(op.params.filter((p) => p.in === 'query').map((p) => p.name))));
  return names;
}
