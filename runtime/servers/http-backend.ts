import type { OperationMeta } from '../engine/index.js';

/** The header names this uWebSockets.js build reads: letters, digits and `-` (RFC 9110 allows more). */
const READABLE = /^[A-Za-z0-9-]+$/;

/** Header parameters of the description that uWS would never see (a request carrying one is never answered). */
export function unreadableHeaders(operations: readonly OperationMeta[]): string[] {
  const names = new Set<string>();
  for (const op of operations) for (const p of op.params) if (p.in === 'header' && !READABLE.test(p.declaredName)) names.add(p.declaredName);
  return [...names].sort();
}
