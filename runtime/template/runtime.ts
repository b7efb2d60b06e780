import { bodyField, headerValue, pathParam, queryParam, type TemplateContext } from './accessors.js';
import { createFaker, type FakerModules } from '../../common/template/index.js';
import { isTruthy, toJsonContent, toText } from './values.js';

/** Helpers the compiled templates call as `t.<name>(...)`; arguments are resolved at build time. */
export interface TemplateRuntime {
  uuid(): string;
  /** ISO 8601 UTC timestamp, `offsetMs` from the runtime's clock. */
  now(offsetMs: number): string;
  /** Inclusive bounds. */
  randInt(min: number, max: number): number;
  randFloat(min: number, max: number): number;
  faker(module: string, method: string): unknown;
  path(c: TemplateContext, name: string): string | undefined;
  query(c: TemplateContext, name: string): string | undefined;
  header(c: TemplateContext, name: string): string | undefined;
  body(c: TemplateContext, path: readonly string[]): unknown;
  /** Value as raw text. */
  str(value: unknown): string;
  /** Value as JSON string content. */
  json(value: unknown): string;
  truthy(value: unknown): boolean;
}

export interface TemplateRuntimeOptions {
  /** Seeds every random token, making output repeatable. */
  seed?: number;
  /** Clock in epoch milliseconds; defaults to Date.now. */
  now?: () => number;
}

export function createTemplateRuntime(options: TemplateRuntimeOptions = {}): TemplateRuntime {
  const faker = createFaker(options.seed);
  const modules = faker as unknown as FakerModules;
  const clock = options.now ?? Date.now;
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
  };
}
