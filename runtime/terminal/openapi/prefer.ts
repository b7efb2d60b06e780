import type { ErrorBody } from '../../serve-options.js';

/** What the client asked for with `Prefer: code=404, example=cat, dynamic=true` or `__code`/`__example`/`__dynamic`. */
export interface Preference {
  code?: string;
  example?: string;
  dynamic?: boolean;
}

const NONE: Preference = Object.freeze({});

export function readPreference(header: string | undefined, query: ReadonlyMap<string, string[]>): Preference {
  const qCode = query.get('__code')?.[0];
  const qExample = query.get('__example')?.[0];
  const qDynamic = query.get('__dynamic')?.[0];
  if (!header && qCode === undefined && qExample === undefined && qDynamic === undefined) return NONE;
  const out: Preference = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (key === 'code') out.code = value;
    else if (key === 'example') out.example = value;
    else if (key === 'dynamic') out.dynamic = value === 'true';
  }
  // the header wins; query parameters are the fallback for clients that cannot set headers
  if (out.code === undefined && qCode !== undefined) out.code = qCode;
  if (out.example === undefined && qExample !== undefined) out.example = qExample;
  if (out.dynamic === undefined && qDynamic !== undefined) out.dynamic = qDynamic === 'true' || qDynamic === '';
  return out;
}

/** `Prefer: error-body=problem|documented` (RFC 7240): how a refused request wants its body, whatever validation.error_body says. */
export function preferredErrorBody(header: string | undefined): ErrorBody | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(/[,;]/)) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim().toLowerCase() !== 'error-body') continue;
    const value = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (value === 'problem' || value === 'documented') return value;
  }
  return undefined;
}
