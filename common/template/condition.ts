import type { Condition, Operand } from './ast.js';
import { TemplateSyntaxError } from './errors.js';
import { parseValueToken } from './value-token.js';

type Lexeme = { kind: 'open' | 'close' } | { kind: 'string'; value: string } | { kind: 'word'; value: string };

const LEXEME = /\s*(?:(\()|(\))|'([^']*)'|"([^"]*)"|([^\s()'"]+))\s*/y;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** Parses what follows `#if`: `(eq <a> <b>)`, `(ne <a> <b>)` or a bare value (truthiness); `vars` as parseValueToken takes them. */
export function parseCondition(text: string, offset: number, vars: readonly string[] = []): Condition {
  const fail = (problem: string): never => {
    throw new TemplateSyntaxError(`${problem} in {{#if ${text}}}`, offset);
  };
  const lexemes = lex(text, fail);
  const operand = (lexeme: Lexeme | undefined): Operand => {
    if (lexeme?.kind === 'string') return { kind: 'literal', value: lexeme.value };
    if (lexeme?.kind !== 'word') return fail('expected a value');
    if (NUMBER.test(lexeme.value)) return { kind: 'literal', value: lexeme.value };
    return parseValueToken(lexeme.value, offset, vars) ?? fail(`unknown value '${lexeme.value}'`);
  };

  if (lexemes[0]?.kind !== 'open') {
    if (lexemes.length !== 1) fail('expected one value or (eq a b)');
    return { kind: 'truthy', operand: operand(lexemes[0]) };
  }
  const [, op, left, right, close] = lexemes;
  if (op?.kind !== 'word' || (op.value !== 'eq' && op.value !== 'ne')) return fail('expected eq or ne after (');
  if (close?.kind !== 'close' || lexemes.length !== 5) fail(`expected (${op.value} <value> <value>)`);
  return { kind: 'compare', op: op.value, left: operand(left), right: operand(right) };
}

function lex(text: string, fail: (problem: string) => never): Lexeme[] {
  const lexemes: Lexeme[] = [];
  LEXEME.lastIndex = 0;
  while (LEXEME.lastIndex < text.length) {
    const at = LEXEME.lastIndex;
    const m = LEXEME.exec(text);
    if (!m) return fail(`unexpected '${text.slice(at)}'`);
    if (m[1]) lexemes.push({ kind: 'open' });
    else if (m[2]) lexemes.push({ kind: 'close' });
    else if (m[5] !== undefined) lexemes.push({ kind: 'word', value: m[5] });
    else lexemes.push({ kind: 'string', value: m[3] ?? m[4] });
  }
  return lexemes;
}
