/** Small helpers for writing JavaScript source text. */

/** A JSON value as a JS expression (a fresh object/array each time it is evaluated). */
export function literal(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `target.key = value;` — `__proto__` needs defineProperty to become an own property. */
export function assignment(target: string, key: string, value: string): string {
  if (key === '__proto__') {
    return `Object.defineProperty(${target}, "__proto__", { value: ${value}, enumerable: true, writable: true, configurable: true });`;
  }
  return IDENTIFIER.test(key) ? `${target}.${key} = ${value};` : `${target}[${JSON.stringify(key)}] = ${value};`;
}

/**
 * The nesting depth of the value being generated: `d + offset` inside a generator function
 * (whose parameter is `d`), or a plain number in a top-level expression, where depth tests fold away.
 */
export interface Depth {
  readonly variable: boolean;
  readonly offset: number;
}

export const TOP: Depth = { variable: false, offset: 0 };
export const PARAMETER: Depth = { variable: true, offset: 0 };

export function deeper(depth: Depth): Depth {
  return { variable: depth.variable, offset: depth.offset + 1 };
}

export function depthText(depth: Depth): string {
  if (!depth.variable) return String(depth.offset);
  return depth.offset === 0 ? 'd' : `d + ${depth.offset}`;
}

/** `depth < limit` as a JS condition, or a boolean when it is known at build time. */
export function below(depth: Depth, limit: number): string | boolean {
  return depth.variable ? `d < ${limit - depth.offset}` : depth.offset < limit;
}

/** `condition ? whenTrue : whenFalse`, folded when the condition is known. */
export function choose(condition: string | boolean, whenTrue: string, whenFalse: string): string {
  if (condition === true) return whenTrue;
  if (condition === false) return whenFalse;
  return whenTrue === whenFalse ? whenTrue : `${condition} ? ${whenTrue} : ${whenFalse}`;
}
