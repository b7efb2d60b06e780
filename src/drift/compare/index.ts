import { MockError } from '../../../common/errors.js';
import { detectKind } from './detect.js';
import { compareOpenApi } from './openapi/index.js';
import type { Change, DescriptionKind, Severity } from './types.js';

export type { Change, DescriptionKind, Severity } from './types.js';
export { SEVERITY_MEANING } from './types.js';
export { OPENAPI_CHECKS } from './openapi/index.js';
export { formatReport, failsOn, sortChanges, type CompareReport, type ReportFormat } from './report.js';

export interface CompareOptions {
  /** --allow-ref: where external $refs of OpenAPI descriptions may read besides the project. */
  allowRefs?: readonly string[];
  /** contract_diff.severities of mock.yaml: check id → the severity to report its changes with. */
  severities?: Readonly<Record<string, Severity>>;
}

/** Both descriptions' kind (they must agree) and the changes from the old to the new one. */
export async function compareDescriptions(oldPath: string, newPath: string, options: CompareOptions = {}): Promise<{ kind: DescriptionKind; changes: Change[] }> {
  const kind = detectKind(oldPath, '--old-spec');
  const newKind = detectKind(newPath, '--new-spec');
  if (kind !== newKind) {
    throw new MockError('MOCK_ERR_COMPARE_KIND', `--old-spec ${oldPath} is ${NAMES[kind]} but --new-spec ${newPath} is ${NAMES[newKind]}: compare two versions of one kind`);
  }
  if (kind !== 'openapi')
    throw new MockError('MOCK_ERR_COMPARE_UNSUPPORTED', `mock contract-diff compare of ${NAMES[kind]} descriptions is not built yet: only OpenAPI and Swagger 2.0 compare for now`);
  const changes = await compareOpenApi(oldPath, newPath, options.allowRefs);
  const severities = options.severities ?? {};
  return { kind, changes: changes.map((change) => (severities[change.id] === undefined ? change : { ...change, severity: severities[change.id] })) };
}

const NAMES: Readonly<Record<DescriptionKind, string>> = { openapi: 'OpenAPI', graphql: 'GraphQL', proto: '.proto' };
