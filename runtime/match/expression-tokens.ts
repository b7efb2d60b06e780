import { PatternError } from '../../common/patterns/index.js';

/**
 * The tokens of a condition expression (expression.ts has the grammar). JSONPaths, header and
 * query references are single tokens: a path runs to the first space, comma, `)` or comparison
 * operator outside its brackets and quotes, so filters such as `$.items[?@.qty > 5]` stay whole.
 */
export type Token =
  | { kind: 'jsonpath'; text: string; start: number }
  | { kind: 'header' | 'query'; name: string; start: number }
  | { kind: 'string'; value: string; start: number }
  | { kind: 'number'; value: number; start: number }
  | { kind: 'word'; text: string; start: number }
  | { kind: 'op'; text: Operator; start: number }
  | { kind: '(' | ')' | ','; start: number }
  | { kind: 'end'; start: number };

export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A malformed expression: what was expected and where (`position` counts characters from 1). */
export class ExpressionError extends PatternError {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position}`);
    this.name = 'ExpressionError';
  }
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPERATORS: readonly Operator[] = ['==', '!=', '<=', '>=', '<', '>'];
const SPACE = /\s/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r' };

/** Throws ExpressionError at the first character that starts no token. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const c = source[at];
    if (SPACE.test(c)) {
      at++;
      continue;
    }
    const start = at;
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c, start });
      at++;
    } else if (c === '$') {
      at = jsonPathEnd(source, at);
      tokens.push({ kind: 'jsonpath', text: source.slice(start, at), start });
    } else if (c === "'" || c === '"') {
      const read = quoted(source, at);
      tokens.push({ kind: 'string', value: read.value, start });
      at = read.end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = at;
      const match = NUMBER.exec(source);
      if (match === null) throw new ExpressionError(`expected a number after "-"`, at + 2);
      tokens.push({ kind: 'number', value: Number(match[0]), start });
      at = NUMBER.lastIndex;
    } else if ('=!<>'.includes(c)) {
      const op = OPERATORS.find((o) => source.startsWith(o, at));
      if (op === undefined) throw new ExpressionError(`expected a comparison (==, !=, <, <=, >, >=), found "${c}"`, at + 1);
      tokens.push({ kind: 'op', text: op, start });
      at += op.length;
    } else {
      WORD.lastIndex = at;
      const match = WORD.exec(source);
      if (match === null) throw new ExpressionError(`unexpected character "${c}"`, at + 1);
      at = WORD.lastIndex;
      const word = match[0].toLowerCase();
      if ((word === 'header' || word === 'query') && source[at] === '[') {
        const read = bracketedName(source, at, word);
        tokens.push({ kind: word, name: read.name, start });
        at = read.end;
      } else tokens.push({ kind: 'word', text: match[0], start });
    }
  }
  tokens.push({ kind: 'end', start: source.length });
  return tokens;
}

/** Where a JSONPath starting at `from` ends: brackets and quoted names inside it are skipped whole. */
function jsonPathEnd(source: string, from: number): number {
  const open: number[] = [];
  let at = from;
  while (at < source.length) {
    const c = source[at];
    if (open.length === 0 && (SPACE.test(c) || c === ',' || c === ')' || '=!<>'.includes(c))) break;
    if (c === "'" || c === '"') {
      at = quoted(source, at).end;
      continue;
    }
    if (c === '[' || c === '(') open.push(at);
    else if (c === ']' || c === ')') open.pop();
    at++;
  }
  if (open.length > 0) throw new ExpressionError(`"${source[open[open.length - 1]]}" in the JSONPath is never closed`, open[open.length - 1] + 1);
  return at;
}

/** A quoted string from its opening quote: its value and the index after the closing quote. */
function quoted(source: string, from: number): { value: string; end: number } {
  const quote = source[from];
  let value = '';
  let at = from + 1;
  while (at < source.length) {
    const c = source[at];
    if (c === quote) return { value, end: at + 1 };
    if (c === '\\' && at + 1 < source.length) {
      const next = source[at + 1];
      value += ESCAPES[next] ?? next;
      at += 2;
      continue;
    }
    value += c;
    at++;
  }
  throw new ExpressionError(`the string opened here is never closed (missing ${quote})`, from + 1);
}

/** `[name]` or `['name']` after header/query: the name and the index after `]`. */
function bracketedName(source: string, open: number, word: string): { name: string; end: number } {
  let at = open + 1;
  let name: string;
  if (source[at] === "'" || source[at] === '"') {
    const read = quoted(source, at);
    name = read.value;
    at = read.end;
  } else {
    const close = source.indexOf(']', at);
    name = (close === -1 ? source.slice(at) : source.slice(at, close)).trim();
    at = close === -1 ? source.length : close;
  }
  if (source[at] !== ']') throw new ExpressionError(`expected "]" to close ${word}[`, at + 1);
  if (name === '') throw new ExpressionError(`${word}[] needs a name, such as ${word}[${word === 'header' ? 'x-user-role' : 'debug'}]`, open + 2);
  return { name, end: at + 1 };
}
