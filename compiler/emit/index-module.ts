import type { SpecMeta } from '../../common/contract/index.js';
import type { Ir } from '../ir/types.js';
import { GENERATED_HEADER } from './header.js';
import { importContract } from './contract.js';

/** index.ts: the build's face, what `mock serve` imports. `sources`: each description as the build records it. */
export function emitIndex(ir: Ir, sources: string[]): string {
  const specs = ir.specs.map((s, i): SpecMeta => ({ source: sources[i], title: s.title, version: s.version, dialect: s.dialect, basePath: s.basePath, apiKeys: s.apiKeys }));
  return `${GENERATED_HEADER}
${importContract(['BuildModuleCheck', 'SpecMeta'])}import type * as build from './index.js';

export { ${['operations', 'customRoutes', 'behaviours', ...(ir.callbacks.length === 0 ? [] : ['callbacks']), ...(ir.webhooks.length === 0 ? [] : ['webhooks']), 'match'].join(', ')} } from './routes.js';
export { createValidators } from './validators.js';
export { createResponders } from './responders.js';

export const name = ${JSON.stringify(ir.name)};
export const specs: SpecMeta[] = ${JSON.stringify(specs, null, 2)};

/** This module as a whole: type-checking fails unless it is what the runtime loads. */
export type Build = BuildModuleCheck<typeof build>;
`;
}
