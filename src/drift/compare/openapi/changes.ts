import type { Change } from '../types.js';
import { OPENAPI_CHECKS, type OpenApiCheckId } from './checks.js';

/** Collects the changes of one compare, each at `METHOD /path` (or the path) and a JSON pointer. */
export class Changes {
  readonly list: Change[] = [];

  add(id: OpenApiCheckId, where: string, pointer: string, message: string): void {
    this.list.push({ id, severity: OPENAPI_CHECKS[id].severity, kind: 'openapi', location: `${where} ${pointer}`, message });
  }
}
