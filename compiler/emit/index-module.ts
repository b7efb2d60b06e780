import type { Ir } from '../ir/types.js';
import { GENERATED_HEADER } from './header.js';

/** index.ts: the build's face, what `mock serve` imports. */
export function emitIndex(ir: Ir): string {
  const specs = ir.specs.map((s) => ({ source: s.source, title: s.title, version: s.version, dialect: s.dialect, basePath: s.basePath, apiKeys: s.apiKeys }));
  return `${GENERATED_HEADER}
export { operations, customRoutes, match } from './routes.js';
export { createValidators } from './validators.js';
export { createResponders } from './responders.js';

export const name = ${JSON.stringify(ir.name)};
export const specs = ${JSON.stringify(specs, null, 2)};
`;
}
