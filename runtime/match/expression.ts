import { JsonPathLimitError, jsonEquals } from '../../common/patterns/index.js';
import type { Operator } from './expression-tokens.js';
import { parseExpression, type ExpressionNode, type Operand } from './expression-syntax.js';

/** What an expression reads of a request (the Exchange has all three). */
export interface ExpressionRequest {
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** The JSON body; undefined when there is none. */
  readonly json: unknown;
}

/** A condition expression compiled once: `holds` runs per request. */
export interface Expression {
  readonly source: string;
  holds(request: ExpressionRequest): boolean;
}

type Test = (request: ExpressionRequest) => boolean;
type Read = (request: ExpressionRequest) => readonly unknown[];

const NONE: readonly unknown[] = [];

/**
 * Compiles a condition expression (grammar: expression-syntax.ts). Throws ExpressionError (a
 * PatternError) with the position of the first mistake.
 *
 * Semantics: a reference reads every value it can (a JSONPath may select several, a query
 * parameter may be repeated) and a comparison holds when some pair of values satisfies it, so a
 * comparison with a value the request lacks never holds: `header[x] != ''` means "x is sent and
 * not empty", and `NOT(header[x] == 'a')` holds without the header. `==` and `!=` compare as the
 * condition dialect does (a string equals a number or boolean of the same text, since headers and
 * query values are text); `<`, `<=`, `>`, `>=` compare numbers (numeric text counts as a number)
 * or else two strings by code units. A JSONPath evaluation stopped at its bound makes the whole
 * expression not hold: it could not be decided.
 */
export function compileExpression(source: string): Expression {
  const test = compileNode(parseExpression(source));
  return {
    source,
    holds(request) {
      try {
        return test(request);
      } catch (e) {
        if (e instanceof JsonPathLimitError) return false;
        throw e;
      }
    },
  };
}

function compileNode(node: ExpressionNode): Test {
  switch (node.kind) {
    case 'and': {
      const items = node.items.map(compileNode);
      return (request) => items.every((item) => item(request));
    }
    case 'or': {
      const items = node.items.map(compileNode);
      return (request) => items.some((item) => item(request));
    }
    case 'not': {
      const item = compileNode(node.item);
      return (request) => !item(request);
    }
    case 'present': {
      const read = reader(node.operand);
      return (request) => read(request).length > 0;
    }
    case 'compare': {
      const left = reader(node.left);
      const right = reader(node.right);
      const test = COMPARISONS[node.op];
      return (request) => {
        const rights = right(request);
        return rights.length > 0 && left(request).some((l) => rights.some((r) => test(l, r)));
      };
    }
  }
}

function reader(operand: Operand): Read {
  switch (operand.kind) {
    case 'json': {
      const { path } = operand;
      return (request) => (request.json === undefined ? NONE : path.values(request.json));
    }
    case 'header': {
      const { name } = operand;
      return (request) => {
        const value = request.headers[name];
        return value === undefined ? NONE : [value];
      };
    }
    case 'query': {
      const { name } = operand;
      return (request) => request.query.get(name) ?? NONE;
    }
    case 'literal': {
      const values = [operand.value];
      return () => values;
    }
  }
}

const COMPARISONS: Readonly<Record<Operator, (a: unknown, b: unknown) => boolean>> = {
  '==': (a, b) => jsonEquals(a, b),
  '!=': (a, b) => !jsonEquals(a, b),
  '<': (a, b) => order(a, b, (n) => n < 0),
  '<=': (a, b) => order(a, b, (n) => n <= 0),
  '>': (a, b) => order(a, b, (n) => n > 0),
  '>=': (a, b) => order(a, b, (n) => n >= 0),
};

/** Numbers (numeric text included) by value, else two strings by code units; anything else is unordered. */
function order(a: unknown, b: unknown, accept: (difference: number) => boolean): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) return accept(x - y);
  if (typeof a === 'string' && typeof b === 'string') return accept(a < b ? -1 : a > b ? 1 : 0);
  return false;
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
