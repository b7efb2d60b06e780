import { MockError } from '../../common/errors.js';
import { checkModule, type InstallRecord } from '../../runtime/index.js';
import { fetchSource } from './source.js';
import { parseChecksum, sha256, validateModule, verifyChecksum, writePlugin } from './store.js';
import type { PluginSettings } from './settings.js';

/**
 * Fetches, verifies (checksum first, then the ABI and limits), and writes one plugin atomically.
 * `expectedName`: update's plugin, which the source must still be.
 */
export async function installFrom(settings: PluginSettings, spec: string, options: { checksum?: string; force: boolean; expectedName?: string; cwd: string }): Promise<InstallRecord> {
  const pinned = options.checksum === undefined ? undefined : parseChecksum(options.checksum);
  const { bytes, source } = await fetchSource(spec, options.cwd);
  if (pinned !== undefined) verifyChecksum(bytes, pinned, spec);
  // checked under the limits mock.yaml gives the plugin its manifest names
  const manifest = validateModule(bytes, settings.limitsOf(checkModule(bytes).manifest?.name ?? ''), spec);
  if (options.expectedName !== undefined && manifest.name !== options.expectedName) {
    throw new MockError('MOCK_ERR_PLUGIN_INVALID', `${spec} is plugin ${manifest.name}, not ${options.expectedName} (nothing was changed)`);
  }
  const record: InstallRecord = { name: manifest.name, version: manifest.version, source, sha256: sha256(bytes), ...(pinned === undefined ? {} : { pinned: `sha256:${pinned}` }) };
  writePlugin(settings.dir, bytes, record, options.force);
  return record;
}
