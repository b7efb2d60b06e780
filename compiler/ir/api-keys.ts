import type { IrApiKey } from './types.js';
import { deref } from './pointer.js';

type Obj = Record<string, unknown>;

const LOCATIONS = new Set(['header', 'query', 'cookie']);

/**
 * Every apiKey security scheme the description declares, used or not (descriptions often declare a
 * scheme and forget to require it): the runtime redacts these parameters from logs and recordings.
 * Sorted by scheme name, so the output is deterministic.
 */
export function apiKeySchemes(document: Obj): IrApiKey[] {
  const schemes = ((document.components as Obj | undefined)?.securitySchemes ?? {}) as Obj;
  const out: IrApiKey[] = [];
  for (const scheme of Object.keys(schemes).sort()) {
    const entry = deref(document, schemes[scheme] as Obj | undefined);
    if (!entry || entry.type !== 'apiKey' || typeof entry.name !== 'string' || !LOCATIONS.has(String(entry.in))) continue;
    out.push({ scheme, in: entry.in as IrApiKey['in'], name: entry.name });
  }
  return out;
}
