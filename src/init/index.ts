export { BLUEPRINTS, BLUEPRINT_NAMES, DEFAULT_BLUEPRINT, blueprintsRoot, type BlueprintName } from './blueprints.js';
export { PROJECT_NAME_PLACEHOLDER, fillProjectName, selectExampleBlocks, stripResponseExamples } from './render.js';
export { serveCommand, shellWord } from './next-step.js';
export { planProject, writeProject, type ProjectFile, type ScaffoldOptions, type WrittenFile } from './scaffold.js';
