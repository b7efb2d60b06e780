/** Scenario packages (docs/scenarios.md): format and validation, install from any npm source, use, the registry. */
export { installScenario } from './install.js';
export { clearActive, listLocal, localScenario, useScenario } from './local.js';
export { registryOptions } from './npmrc.js';
export { registryOf, scenarioHome } from './project.js';
export { validateScenario } from './validate.js';
export { publishScenario, registryInfo, reviewScenario, searchRegistry } from './registry.js';
