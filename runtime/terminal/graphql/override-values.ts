import { isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { overrideVars } from '../../../common/graphql/overrides-check.js';
import { hashValue, mix } from '../fake-data/index.js';
import { idOf, MockObject, type Args, type FieldPlan, type Impl, type ObjectPlan } from './mock-object.js';
import type { MockObjects } from './objects.js';
import { OverrideTemplates, type CompiledOverride } from './overrides.js';
import type { TemplatePlugins } from '../../template/index.js';

const MAX_OVERRIDE_NESTING = 8;
export const EMPTY_ARGS: Args = Object.freeze({}) as Args;

/** graphql.overrides: compiled once per type and field (an interface's for each of its types), answering in the field's type. */
export class OverrideValues {
  private readonly templates: OverrideTemplates;
  private readonly compiled = new Map<string, CompiledOverride>();
  private nesting = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly plans: ReadonlyMap<string, ObjectPlan>,
    private readonly objects: MockObjects,
    now: () => number,
    plugins?: TemplatePlugins,
  ) {
    this.templates = new OverrideTemplates(now, plugins);
  }

  compile(overrides: Record<string, Record<string, unknown>>): void {
    for (const [typeName, fields] of Object.entries(overrides)) {
      const type = this.schema.getType(typeName);
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const targets = isInterfaceType(type) ? this.schema.getPossibleTypes(type).map((t) => t.name) : [typeName];
      for (const [fieldName, value] of Object.entries(fields)) {
        for (const target of targets) {
          const key = `${target}.${fieldName}`;
          // an object type's own override beats its interface's
          if (this.compiled.has(key) && target !== typeName) continue;
          if (this.plans.get(target)?.fields.get(fieldName) === undefined) continue;
          this.compiled.set(key, this.templates.compile(value, overrideVars(this.schema, target, fieldName)));
        }
      }
    }
  }

  /** The field's value from its override, if it has one (else `base`); overrides answering through other overridden fields stop at a nesting of MAX_OVERRIDE_NESTING. */
  wrap(fp: FieldPlan, base: Impl): Impl {
    const override = this.compiled.get(`${fp.owner.name}.${fp.name}`);
    if (override === undefined) return base;
    const type = fp.field.type;
    const slot = (obj: MockObject, argsHash: number): [number, number] => [mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2)];
    return (obj, args, argsHash) => {
      const [a, b] = slot(obj, argsHash);
      if (this.nesting >= MAX_OVERRIDE_NESTING) return undefined;
      this.nesting++;
      try {
        const raw = override.value(override.vars.length === 0 ? EMPTY_ARGS : this.templateVars(override.vars, obj, args), a);
        return this.objects.toOutput(raw, type, a, b, true);
      } finally {
        this.nesting--;
      }
    };
  }

  private templateVars(names: readonly string[], obj: MockObject, args: Args | undefined): Record<string, unknown> {
    const vars: Record<string, unknown> = {};
    for (const name of names) {
      if (name.startsWith('args.')) {
        let value: unknown = args;
        for (const key of name.slice(5).split('.')) value = typeof value === 'object' && value !== null ? (value as Args)[key] : undefined;
        vars[name] = value;
      } else if (name.startsWith('parent.')) {
        const sibling = obj.$p.fields.get(name.slice(7));
        const value = sibling?.value(obj, EMPTY_ARGS, sibling.field.args.length > 0 ? hashValue(0, EMPTY_ARGS) : 0);
        vars[name] = value instanceof MockObject ? (idOf(value) ?? '') : value;
      }
    }
    return vars;
  }
}
