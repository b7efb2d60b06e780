import type { Language } from './api.js';
import { NameRegistry } from './names.js';

/** First statement of an object generator; TypeScript types the object so properties can be added. */
export const NEW_OBJECT = 'const o = {};';
const NEW_OBJECT_TS = 'const o: Record<string, unknown> = {};';

interface Constant {
  readonly name: string;
  readonly code: string;
}

interface GeneratorFunction {
  readonly name: string;
  /** Statements of the body, the same in JavaScript and TypeScript but for NEW_OBJECT. */
  lines: string[];
}

/** The code an emitter writes: module-level constants and generator functions, each made once by key, named without collisions. */
export class GeneratedCode {
  private readonly names = new NameRegistry();
  /** Module-level constants (enum arrays, compiled patterns), keyed by content. */
  private readonly constants = new Map<string, Constant>();
  /** Generator functions in creation order, keyed by everything their body depends on. */
  private readonly functions = new Map<string, GeneratorFunction>();

  /** Creates a generator function once per key; its name is claimed before the body is built, so recursion finds it. */
  helperFunction(key: string, stem: string, build: () => string[]): string {
    const existing = this.functions.get(key);
    if (existing) return existing.name;
    const fn: GeneratorFunction = { name: this.names.claim('gen', stem), lines: [] };
    this.functions.set(key, fn);
    fn.lines = build();
    return fn.name;
  }

  /** The name of the function made for `key`, if one was. */
  functionName(key: string): string | undefined {
    return this.functions.get(key)?.name;
  }

  constant(key: string, prefix: string, stem: string, init: string): string {
    let constant = this.constants.get(key);
    if (!constant) {
      const name = this.names.claim(prefix, stem);
      constant = { name, code: `const ${name} = ${init};\n` };
      this.constants.set(key, constant);
    }
    return constant.name;
  }

  declarations(language: Language): string {
    const constants = [...this.constants.values()].map((constant) => constant.code);
    const functions = [...this.functions.values()].map((fn) => functionSource(fn, language));
    return [...constants, ...functions].join('');
  }
}

/** The depth parameter and the result are typed in TypeScript (recursive functions need a declared result). */
function functionSource(fn: GeneratorFunction, language: Language): string {
  const ts = language === 'ts';
  const body = fn.lines.map((line) => `  ${ts && line === NEW_OBJECT ? NEW_OBJECT_TS : line}\n`).join('');
  return ts ? `function ${fn.name}(d: number): unknown {\n${body}}\n` : `function ${fn.name}(d) {\n${body}}\n`;
}
