import { existsSync, rmSync, statSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { isMockError, MockError } from '../../../common/errors.js';
import { redactUrlCredentials } from '../../../common/redacted.js';
import { compareDescriptions, failsOn, type CompareReport, type Severity } from '../compare/index.js';
import { temporaryBeside } from './atomic.js';
import { fetchDescription, type Validators } from './fetch.js';
import { validatorsFor, writeState } from './state.js';

export { MAX_BODY_BYTES } from './fetch.js';
export { statePath } from './state.js';
export type { Validators } from './fetch.js';

export interface SyncOptions {
  timeoutMs: number;
  /** contract_diff.severities of mock.yaml. */
  severities?: Readonly<Record<string, Severity>>;
  /** --fail-on: a change of this severity or worse keeps the local file (unless `force`) and fails the sync. */
  failOn?: 'error' | 'warning';
  force?: boolean;
  /** The validators of a body this process already reported and kept (--watch): a 304 to them means nothing new. */
  kept?: Validators;
}

/**
 * unchanged: the server answered 304, nothing written; created/updated: the target (and its state)
 * replaced atomically; kept: a change reached --fail-on, the target left as it was.
 */
export type SyncOutcome =
  { outcome: 'unchanged' } | { outcome: 'created' | 'updated'; report: CompareReport; failed: boolean } | { outcome: 'kept'; report: CompareReport; failed: true; validators: Validators };

/** The extensions compareDescriptions knows a single file's kind by. */
const EXTENSIONS = ['.yaml', '.yml', '.json', '.graphql', '.gql', '.graphqls', '.proto'];

/** Fetches `url` (conditionally) into `target`, comparing the local description with the fetched one first. */
export async function syncDescription(url: string, target: string, options: SyncOptions): Promise<SyncOutcome> {
  const folder = path.dirname(path.resolve(target));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `--to ${target}: the folder ${folder} does not exist (create it first)`, 2);
  if (!EXTENSIONS.includes(path.extname(target).toLowerCase())) {
    throw new MockError('MOCK_ERR_COMPARE_KIND', `--to ${target}: unknown description kind (name it ${EXTENSIONS.join(', ')}: the kind is read from the extension)`, 2);
  }
  const fetched = await fetchDescription(url, options.kept ?? validatorsFor(target, url), options.timeoutMs);
  if (fetched.status === 'unchanged') return { outcome: 'unchanged' };
  const shown = redactUrlCredentials(url);
  const existed = existsSync(target);
  const temporary = temporaryBeside(target);
  try {
    writeFileSync(temporary, fetched.body);
    // a first sync compares the description with itself: it is parsed, and a malformed body never lands
    const { kind, changes } = await compareDescriptions(existed ? target : temporary, temporary, { severities: options.severities }).catch((e: unknown) => {
      throw blame(e, temporary, shown);
    });
    const report: CompareReport = { oldSpec: existed ? target : '(none)', newSpec: shown, kind, changes };
    const failed = options.failOn !== undefined && failsOn(changes, options.failOn);
    if (failed && options.force !== true) return { outcome: 'kept', report, failed, validators: { etag: fetched.etag, lastModified: fetched.lastModified } };
    renameSync(temporary, target);
    writeState(target, url, fetched.body, fetched);
    return { outcome: existed ? 'updated' : 'created', report, failed };
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Errors about the temporary file name the URL it came from, and exit 2 (an input problem, not a breaking change). */
function blame(e: unknown, temporary: string, shown: string): MockError {
  if (!isMockError(e)) return new MockError('MOCK_ERR_SPEC_PARSE', `${shown}: cannot compare: ${(e as Error).message.split('\n')[0]}`, 2);
  return new MockError(e.code, e.message.replaceAll(path.resolve(temporary), shown).replaceAll(temporary, shown), 2);
}
