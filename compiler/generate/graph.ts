/** Whole-definition facts that need the reference graph: recursion and mode sensitivity. */
import type { JsonSchema } from '../ir/types.js';
import { isSchemaObject, refName, walk } from './schema.js';

export class SchemaGraph {
  private readonly refs = new Map<string, string[]>();
  private readonly recursive = new Map<string, boolean>();
  private sensitive?: Set<string>;

  constructor(private readonly definitions: Record<string, JsonSchema>) {}

  /** Whether the definition can reach itself through `$ref`s (its generator needs a depth guard). */
  isRecursive(name: string): boolean {
    let answer = this.recursive.get(name);
    if (answer === undefined) {
      answer = false;
      const seen = new Set<string>();
      const stack = [...this.refsOf(name)];
      while (stack.length > 0 && !answer) {
        const next = stack.pop()!;
        if (next === name) answer = true;
        else if (!seen.has(next)) {
          seen.add(next);
          stack.push(...this.refsOf(next));
        }
      }
      this.recursive.set(name, answer);
    }
    return answer;
  }

  /** Whether request and response generators of this schema differ (readOnly/writeOnly reachable). */
  isModeSensitive(schema: unknown): boolean {
    const sensitive = this.sensitiveDefinitions();
    return this.hasModeFlags(schema) || this.collectRefs(schema).some((name) => sensitive.has(name));
  }

  isDefinitionModeSensitive(name: string): boolean {
    return this.sensitiveDefinitions().has(name);
  }

  private refsOf(name: string): string[] {
    let refs = this.refs.get(name);
    if (!refs) {
      refs = this.collectRefs(this.definitions[name]);
      this.refs.set(name, refs);
    }
    return refs;
  }

  private collectRefs(schema: unknown): string[] {
    const names = new Set<string>();
    walk(schema, (node) => {
      const name = refName(node.$ref);
      if (name !== undefined && Object.hasOwn(this.definitions, name)) names.add(name);
    });
    return [...names];
  }

  /** readOnly/writeOnly on a property (directly, on its `$ref` target or an allOf member). */
  private hasModeFlags(schema: unknown): boolean {
    const flagged = (property: unknown, hops = 0): boolean => {
      if (!isSchemaObject(property) || hops > 8) return false;
      if (property.readOnly === true || property.writeOnly === true) return true;
      const name = refName(property.$ref);
      if (name !== undefined && Object.hasOwn(this.definitions, name) && flagged(this.definitions[name], hops + 1)) {
        return true;
      }
      return Array.isArray(property.allOf) && property.allOf.some((member) => flagged(member, hops + 1));
    };
    let found = false;
    walk(schema, (node) => {
      if (!found && isSchemaObject(node.properties)) found = Object.values(node.properties).some((p) => flagged(p));
    });
    return found;
  }

  private sensitiveDefinitions(): Set<string> {
    if (this.sensitive) return this.sensitive;
    const names = Object.keys(this.definitions);
    const sensitive = new Set(names.filter((name) => this.hasModeFlags(this.definitions[name])));
    // Propagate to every definition that references a sensitive one, until nothing changes.
    for (let changed = true; changed; ) {
      changed = false;
      for (const name of names) {
        if (!sensitive.has(name) && this.refsOf(name).some((ref) => sensitive.has(ref))) {
          sensitive.add(name);
          changed = true;
        }
      }
    }
    this.sensitive = sensitive;
    return sensitive;
  }
}
