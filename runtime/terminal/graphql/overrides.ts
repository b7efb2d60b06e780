import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../../../common/english-faker.js';
import { createFastRandomizer } from '../../../common/generate/fast-randomizer.js';
import { hasOverrideTemplate, templateVarNames } from '../../../common/graphql/overrides-check.js';
import { parseTemplate, type FakerModules } from '../../../common/template/index.js';
import { createTemplateRuntime, templateRenderer, type Render, type TemplateContext, type TemplatePlugins, type TemplateRuntime } from '../../template/index.js';

/**
 * graphql.overrides compiled: static values are returned as they are; strings with `{{…}}` are
 * rendered with the project's template engine (common/template's parser, the runtime's
 * interpreter), their `var` tokens being the field's arguments and the parent's fields. Random
 * tokens (`{{uuid}}`, `{{faker.…}}`, `{{randInt}}`) are seeded per object and field, so an
 * override answers the same for the same object, like the rest of the mock.
 */
export interface CompiledOverride {
  /** The variables the templates read (`args.id`, `parent.name`); empty for a static value. */
  readonly vars: readonly string[];
  /** The raw value: the static value, or the same with its templates rendered (strings). */
  value(vars: Record<string, unknown>, h: number): unknown;
}

export class OverrideTemplates {
  private readonly randomizer = createFastRandomizer(0);
  private readonly faker: Faker;
  private readonly runtime: TemplateRuntime;
  private readonly context: TemplateContext = { path: {}, query: {}, headers: {}, body: undefined, vars: {} };

  constructor(now: () => number, plugins?: TemplatePlugins) {
    this.faker = englishFaker(this.randomizer);
    this.faker.setDefaultRefDate(() => new Date(now()));
    const modules = this.faker as unknown as FakerModules;
    const faker = this.faker;
    this.runtime = {
      ...createTemplateRuntime({ now, plugins }),
      uuid: () => faker.string.uuid(),
      randInt: (min, max) => faker.number.int({ min, max }),
      randFloat: (min, max) => faker.number.float({ min, max }),
      faker: (module, method) => modules[module]![method]!(),
    };
  }

  compile(value: unknown, allowedVars: readonly string[]): CompiledOverride {
    const used = new Set<string>();
    const tree = this.compileTree(value, allowedVars, used);
    if (tree === STATIC) return { vars: [], value: () => value };
    const render = tree;
    return { vars: [...used], value: (vars, h) => render(vars, h) };
  }

  private compileTree(value: unknown, allowedVars: readonly string[], used: Set<string>): typeof STATIC | ((vars: Record<string, unknown>, h: number) => unknown) {
    if (typeof value === 'string') {
      if (!hasOverrideTemplate(value)) return STATIC;
      templateVarNames(parseTemplate(value, 'none', allowedVars), used);
      const render = templateRenderer(value, 'none', allowedVars);
      return (vars, h) => this.render(render, vars, h);
    }
    if (Array.isArray(value)) {
      const items = value.map((item) => this.compileTree(item, allowedVars, used));
      if (items.every((item) => item === STATIC)) return STATIC;
      return (vars, h) => items.map((item, i) => (item === STATIC ? value[i] : item(vars, h + i + 1)));
    }
    if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value).map(([key, item]) => [key, item, this.compileTree(item, allowedVars, used)] as const);
      if (entries.every(([, , compiled]) => compiled === STATIC)) return STATIC;
      return (vars, h) => {
        const out: Record<string, unknown> = {};
        for (const [key, item, compiled] of entries) out[key] = compiled === STATIC ? item : compiled(vars, h);
        return out;
      };
    }
    return STATIC;
  }

  private render(render: Render, vars: Record<string, unknown>, h: number): string {
    this.randomizer.seed(h);
    (this.context as { vars: unknown }).vars = vars;
    try {
      return render(this.runtime, this.context);
    } catch (error) {
      // a faker method that throws on its own: the answer says so rather than failing the query
      return `override failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

const STATIC = Symbol('static');
