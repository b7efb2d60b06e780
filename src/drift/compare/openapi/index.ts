import type { Change } from '../types.js';
import { Changes } from './changes.js';
import { loadDescription } from './document.js';
import { compareOperations } from './operations.js';

export { OPENAPI_CHECKS, type OpenApiCheckId } from './checks.js';

/** The changes from one OpenAPI (or Swagger 2.0) description to another, read as mock build reads them. */
export async function compareOpenApi(oldSource: string, newSource: string, allowRefs: readonly string[] = []): Promise<Change[]> {
  const [old, next] = await Promise.all([loadDescription(oldSource, allowRefs), loadDescription(newSource, allowRefs)]);
  const changes = new Changes();
  compareOperations(old, next, changes);
  return changes.list;
}
