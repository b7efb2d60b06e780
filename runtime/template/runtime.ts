import type { TemplateRuntime } from '../../common/contract/index.js';
import { bodyField, headerValue, pathParam, queryParam } from './accessors.js';
import { createFaker, type FakerModules } from '../../common/template/index.js';
import { isTruthy, toJsonContent, toText } from './values.js';

/** What answers `{{plugin:<plugin>:<action>(<args>)}}` tokens: the server's PluginHost (runtime/plugins). */
export interface TemplatePlugins {
  call(plugin: string, action: string, input: string): unknown;
}

export interface TemplateRuntimeOptions {
  /** Seeds every random token, making output repeatable. */
  seed?: number;
  /** Clock in epoch milliseconds; defaults to Date.now. */
  now?: () => number;
  /** Answers `{{plugin:…}}` calls (the server's PluginHost); absent: a call renders as written. */
  plugins?: TemplatePlugins;
}

const insertOf = { str: toText, json: toJsonContent };

export function createTemplateRuntime(options: TemplateRuntimeOptions = {}): TemplateRuntime {
  const faker = createFaker(options.seed);
  const modules = faker as unknown as FakerModules;
  const clock = options.now ?? Date.now;
  const plugins = options.plugins;
  // faker.date.* tokens count from the same clock as {{now}}
  faker.setDefaultRefDate(() => new Date(clock()));
  return {
    uuid: () => faker.string.uuid(),
    now: (offsetMs) => new Date(clock() + offsetMs).toISOString(),
    randInt: (min, max) => faker.number.int({ min, max }),
    randFloat: (min, max) => faker.number.float({ min, max }),
    faker: (module, method) => modules[module][method](),
    path: pathParam,
    query: queryParam,
    header: headerValue,
    body: bodyField,
    str: toText,
    json: toJsonContent,
    truthy: isTruthy,
    plugin: plugins === undefined ? (_plugin, _action, _input, source) => source : (plugin, action, input, _source, insert) => insertOf[insert](plugins.call(plugin, action, input)),
  };
}
