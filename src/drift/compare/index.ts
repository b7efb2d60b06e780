import { MockError } from '../../../common/errors.js';
import { detectKind } from './detect.js';
import { compareGraphql } from './graphql/index.js';
import { compareOpenApi } from './openapi/index.js';
import { compareProto } from './proto/index.js';
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
  const changes =
    kind === 'openapi' ? await compareOpenApi(oldPath, newPath, options.allowRefs) : kind === 'graphql' ? await compareGraphql(oldPath, newPath) : await compareProto(oldPath, newPath);
  const severities = options.severities ?? {};
  return { kind, changes: changes.map((change) => (severities[change.id] === undefined ? change : { ...change, severity: severities[change.id] })) };
}

const NAMES: Readonly<Record<DescriptionKind, string>> = { openapi: 'OpenAPI', graphql: 'GraphQL', proto: '.proto' };
