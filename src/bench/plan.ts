// The request plan of `mock bench`: for every selected operation a few valid requests made by the
// project's request factory (the server's own generators, request mode), with --auth and
// --headers applied. Virtual users cycle through it; --generate-only prints it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { Ir, IrOperation, SpecInput } from '../../compiler/index.js';
import { isStreamed } from '../conformance/stream-check.js';
import { createRequestFactory, loadIr, type PlannedRequest } from '../requests/index.js';
import type { WireRequest } from './protocol.js';
import type { Target } from './targets.js';

/** Requests made per operation: values vary between them, the virtual users cycle through all. */
export const VARIANTS_PER_OPERATION = 8;

export interface PlanOperation {
  key: string;
  operationId?: string;
  method: string;
  path: string;
}

export interface Plan {
  operations: PlanOperation[];
  /** `operation` of each request is its index in `operations`. */
  requests: Array<PlannedRequest & { index: number }>;
  /** The description and operation of each entry of `operations` (same index): what answers are validated against. */
  described: Array<{ ir: Ir; op: IrOperation }>;
  /** The operations that answer a stream (a sequential media type): `mock bench` reads one of each item by item before its load. */
  streamed?: Array<{ ir: Ir; op: IrOperation; request: PlannedRequest; index: number }>;
}

export interface PlanOptions {
  specs: string[];
  specDir?: string;
  cwd: string;
  /** --allow-ref: where external $refs may lead besides the project. */
  allowRefs?: string[];
  basePath?: string;
  /** operationIds or `METHOD /path` keys; empty: all. */
  operations: string[];
  auth?: string;
  headers: Record<string, string>;
  seed?: number;
  /** Clock of date-time values (default Date.now): a fixed one makes the plan repeatable. */
  now?: () => number;
  variants?: number;
}

const DESCRIPTION_FILE = /\.(ya?ml|json)$/i;

/** --spec values and the descriptions of --spec-dir (sorted by name). */
export function specSources(specs: string[], specDir: string | undefined, cwd: string): string[] {
  const sources = [...specs];
  if (specDir !== undefined) {
    let names: string[];
    try {
      names = readdirSync(path.resolve(cwd, specDir));
    } catch {
      throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec directory not found: ${specDir} (checked --spec-dir)`);
    }
    const found = names.filter((name) => DESCRIPTION_FILE.test(name)).sort();
    if (found.length === 0) throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `no API description (.yaml, .yml, .json) in ${specDir} (checked --spec-dir)`);
    sources.push(...found.map((name) => path.join(specDir, name)));
  }
  if (sources.length === 0) throw new MockError('MOCK_ERR_NO_SPEC', 'no API description: pass --spec <file|url> or --spec-dir <folder>');
  return sources;
}

export async function buildPlan(options: PlanOptions): Promise<Plan> {
  const sources = specSources(options.specs, options.specDir, options.cwd);
  const variants = options.variants ?? VARIANTS_PER_OPERATION;
  const all: Array<{ ir: Ir; op: IrOperation; make: () => PlannedRequest }> = [];
  // each description on its own: two descriptions may well have the same paths
  for (const source of sources) {
    const spec: SpecInput = options.basePath === undefined ? { source } : { source, basePath: normaliseBasePath(options.basePath) };
    const ir = await loadIr([spec], options.cwd, 'bench', options.allowRefs);
    const factory = createRequestFactory(ir.definitions, options.seed, options.now);
    for (const op of ir.operations) all.push({ ir, op, make: () => factory.valid(op) });
  }
  const chosen = selectOperations(
    all.map((entry) => entry.op),
    options.operations,
  );
  const plan: Plan = { operations: [], requests: [], described: [] };
  for (const entry of all) {
    if (!chosen.has(entry.op)) continue;
    const index = plan.operations.length;
    plan.operations.push({ key: entry.op.key, operationId: entry.op.operationId, method: entry.op.method, path: entry.op.path });
    plan.described.push({ ir: entry.ir, op: entry.op });
    for (let v = 0; v < variants; v++) {
      const request = entry.make();
      applyAuth(request, entry.op, options.auth);
      for (const [name, value] of Object.entries(options.headers)) setHeader(request.headers, name, value);
      plan.requests.push({ ...request, index });
      if (v === 0 && isStreamed(entry.op)) (plan.streamed ??= []).push({ ir: entry.ir, op: entry.op, request, index });
    }
  }
  if (plan.operations.length === 0) throw new MockError('MOCK_ERR_SPEC_INVALID', `no operation to send: ${sources.join(', ')} describes none`);
  return plan;
}

function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** --operations: operationIds, or `METHOD /path` with the path as mounted or as written in the description. */
export function selectOperations(operations: IrOperation[], wanted: string[]): Set<IrOperation> {
  if (wanted.length === 0) return new Set(operations);
  const chosen = new Set<IrOperation>();
  for (const item of wanted) {
    const m = /^([A-Za-z]+)\s+(\/\S*)$/.exec(item.trim());
    const matches = operations.filter((op) =>
      m ? op.method === m[1].toUpperCase() && (op.path === m[2] || op.specPath === m[2]) : op.operationId === item.trim(),
    );
    if (matches.length === 0) {
      const known = operations.map((op) => op.operationId ?? op.key).slice(0, 20);
      throw new MockError(
        'MOCK_ERR_FLAG_INVALID',
        `--operations: no operation ${JSON.stringify(item)} (use an operationId or "METHOD /path"; known: ${known.join(', ')}${operations.length > 20 ? ', …' : ''})`,
      );
    }
    for (const op of matches) chosen.add(op);
  }
  return chosen;
}

/** Header names are case-insensitive: a later value replaces an earlier one whatever its case. */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
  headers[name] = value;
}

/**
 * --auth: `bearer:TOKEN`, `basic:USER:PASSWORD`, `apikey:VALUE` (where the operation's apiKey
 * scheme says: header, query or cookie; else an X-API-Key header), or any other text as the raw
 * Authorization header value.
 */
export function applyAuth(request: PlannedRequest, op: IrOperation, auth: string | undefined): void {
  if (auth === undefined || auth === '') return;
  const [scheme, ...rest] = auth.split(':');
  const value = rest.join(':');
  switch (scheme.toLowerCase()) {
    case 'bearer':
      return setHeader(request.headers, 'authorization', `Bearer ${value}`);
    case 'basic':
      return setHeader(request.headers, 'authorization', `Basic ${Buffer.from(value).toString('base64')}`);
    case 'apikey': {
      const key = op.security.find((s) => s.type === 'apiKey' && s.name);
      if (key?.detail === 'query') {
        const [p, qs = ''] = request.path.split('?');
        const query = new URLSearchParams(qs);
        query.set(key.name as string, value);
        request.path = `${p}?${query}`;
      } else if (key?.detail === 'cookie') {
        const cookie = `${key.name}=${encodeURIComponent(value)}`;
        const existing = Object.entries(request.headers).find(([n]) => n.toLowerCase() === 'cookie')?.[1];
        setHeader(request.headers, 'cookie', existing ? `${existing}; ${cookie}` : cookie);
      } else setHeader(request.headers, key?.name ?? 'x-api-key', value);
      return;
    }
    default:
      return setHeader(request.headers, 'authorization', auth);
  }
}

/** --headers values: `Name: value` each, or a JSON object of names to values. */
export function parseHeaders(values: string[], flag = '--headers'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const text = raw.trim();
    if (text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: not a JSON object: ${JSON.stringify(raw)} (or pass "Name: value")`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: not a JSON object: ${JSON.stringify(raw)}`);
      for (const [name, value] of Object.entries(parsed)) setHeader(headers, checkName(name, flag), String(value));
      continue;
    }
    const colon = text.indexOf(':');
    if (colon <= 0) throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: expected "Name: value" or a JSON object, got ${JSON.stringify(raw)}`);
    setHeader(headers, checkName(text.slice(0, colon).trim(), flag), text.slice(colon + 1).trim());
  }
  return headers;
}

function checkName(name: string, flag: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: not a header name: ${JSON.stringify(name)}`);
  return name;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The bytes of one request to `target`: request line, Host, headers, Content-Length, body. */
export function serialiseRequest(request: { method: string; path: string; headers: Record<string, string>; body?: string }, target: Target): Buffer {
  const lines = [`${request.method} ${target.prefix}${request.path} HTTP/1.1`, `host: ${target.host}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (/^(host|content-length|transfer-encoding|connection)$/i.test(name)) continue;
    lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  }
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (body !== undefined) lines.push(`content-length: ${body.length}`);
  else if (BODY_METHODS.has(request.method)) lines.push('content-length: 0');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body === undefined ? head : Buffer.concat([head, body]);
}

export function toWire(plan: Plan, target: Target): WireRequest[] {
  return plan.requests.map((request) => ({
    operation: request.index,
    bytes: serialiseRequest(request, target),
    bodiless: request.method === 'HEAD',
  }));
}

/** --generate-only: one JSON object per line. */
export function planLines(plan: Plan, target: Target | undefined): string {
  return plan.requests
    .map((r) =>
      JSON.stringify({
        operation: r.operation,
        method: r.method,
        ...(target ? { url: `${target.url}${r.path}` } : {}),
        path: `${target?.prefix ?? ''}${r.path}`,
        headers: r.headers,
        ...(r.body !== undefined ? { body: r.body } : {}),
      }),
    )
    .join('\n')
    .concat('\n');
}
