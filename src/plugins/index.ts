export { fetchSource, parseGitSpec, versionTags, type Fetched } from './source.js';
export { installedPlugin, parseChecksum, removePlugin, sha256, validateModule, verifyChecksum, writePlugin } from './store.js';
export { pluginFlags, pluginSettings, type PluginSettings } from './settings.js';
export { installFrom } from './install.js';
