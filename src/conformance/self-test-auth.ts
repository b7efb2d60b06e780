import type { IrOperation } from '../../compiler/index.js';
import type { ApiAuthOptions } from '../../runtime/index.js';
import { apiAuthOptions } from '../cli/serve-options.js';
import type { ResolvedConfig } from '../config/index.js';
import { samplePins } from '../requests/index.js';

/**
 * The credentials the self-test's server accepts: mock.yaml's `auth` when it has one (then the
 * probes need --auth or --headers carrying them); none pinned when the user brings credentials
 * (--auth, an Authorization or apiKey header); otherwise the probes' own sample credentials, so
 * that a positive probe passes and a bad-credentials probe is refused.
 */
export function selfTestAuth(resolved: ResolvedConfig, operations: IrOperation[], auth: string | undefined, headers: Record<string, string>): ApiAuthOptions | undefined {
  const configured = apiAuthOptions(resolved);
  if (configured !== undefined) return configured;
  if (auth !== undefined || headers.authorization !== undefined) return undefined;
  const keyHeaders = operations.flatMap((op) => op.security).filter((s) => s.type === 'apiKey' && s.detail === 'header' && s.name !== undefined);
  if (keyHeaders.some((s) => headers[(s.name as string).toLowerCase()] !== undefined)) return undefined;
  return samplePins(operations);
}
