/** Scenario packages (docs/scenarios.md): format and validation, install from any npm source, use, the registry. */
export { LIMITS } from './archive.js';
export { installScenario, type InstallOptions, type InstalledScenario } from './install.js';
export { activeScenario, clearActive, listLocal, localScenario, useScenario, type LocalScenario } from './local.js';
export { checkManifest, MANIFEST_FILE, type ScenarioManifest } from './manifest.js';
export { registryOptions } from './npmrc.js';
export { registryOf, scenarioHome, type ScenarioHome } from './project.js';
export { validateScenario, type ScenarioReport } from './validate.js';
export { publishScenario, registryInfo, reviewScenario, searchRegistry, SCENARIO_KEYWORD, type MarketEntry } from './registry.js';
