import { PatternError, compileJsonPath, type JsonPath } from '../../common/patterns/index.js';
import { ExpressionError, tokenize, type Operator, type Token } from './expression-tokens.js';

/** What a comparison reads: a value of the request, or a literal. */
export type Operand =
  | { kind: 'json'; path: JsonPath }
  | { kind: 'header'; name: string }
  | { kind: 'query'; name: string }
  | { kind: 'literal'; value: string | number | boolean | null };

export type ExpressionNode =
  | { kind: 'and' | 'or'; items: ExpressionNode[] }
  | { kind: 'not'; item: ExpressionNode }
  | { kind: 'compare'; left: Operand; op: Operator; right: Operand }
  | { kind: 'present'; operand: Operand };

/** Longer expressions are refused: they come from files and programs, and are parsed once. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** How deeply AND/OR/NOT may nest. */
export const MAX_EXPRESSION_DEPTH = 32;

const LITERAL_WORDS: Readonly<Record<string, boolean | null>> = { true: true, false: false, null: null };
const GRAMMAR_HINT = "a comparison such as $.user.role == 'admin', header[x-debug] != '' or query[v] == '2', or AND(...), OR(...), NOT(...)";

/**
 * Parses a condition expression (docs/configuration.md, "Conditions", the conditional proxy):
 *
 *   expression := call | comparison
 *   call       := (AND | OR) "(" expression ("," expression)* ")" | NOT "(" expression ")"
 *   comparison := operand [operator operand]
 *   operand    := jsonpath | header[name] | query[name] | 'text' | "text" | number | true | false | null
 *   operator   := == | != | < | <= | > | >=
 *
 * AND, OR and NOT in any case. An operand alone holds when the request has the value. Throws
 * ExpressionError with the 1-based position of what is wrong; a JSONPath is compiled here too
 * (RFC 9535, bounded), so a malformed one is refused at its own position.
 */
export function parseExpression(source: string): ExpressionNode {
  if (typeof source !== 'string') throw new PatternError(`must be a string such as "${"$.user.role == 'admin'"}"`);
  if (source.length > MAX_EXPRESSION_LENGTH) throw new PatternError(`is ${source.length} characters long; conditions may have at most ${MAX_EXPRESSION_LENGTH}`);
  const parser = new Parser(tokenize(source));
  const node = parser.expression(0);
  parser.expectEnd();
  return node;
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  expression(depth: number): ExpressionNode {
    const token = this.peek();
    if (token.kind === 'word') {
      const name = token.text.toUpperCase();
      if (name === 'AND' || name === 'OR' || name === 'NOT') return this.call(name, depth);
    }
    return this.comparison();
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw this.unexpected(token, 'the end of the condition (join conditions with AND(...) or OR(...))');
  }

  private call(name: 'AND' | 'OR' | 'NOT', depth: number): ExpressionNode {
    const head = this.next();
    if (depth >= MAX_EXPRESSION_DEPTH) throw new ExpressionError(`AND, OR and NOT nest more than ${MAX_EXPRESSION_DEPTH} deep`, head.start + 1);
    this.expect('(', `"(" after ${name}`);
    const items: ExpressionNode[] = [];
    for (;;) {
      if (this.peek().kind === ')' && items.length === 0) throw this.unexpected(this.peek(), `a condition inside ${name}(...)`);
      items.push(this.expression(depth + 1));
      const after = this.next();
      if (after.kind === ')') break;
      if (after.kind !== ',' || name === 'NOT') throw this.unexpected(after, name === 'NOT' ? '")": NOT takes one condition' : `"," or ")" in ${name}(...)`);
    }
    return name === 'NOT' ? { kind: 'not', item: items[0] } : { kind: name === 'AND' ? 'and' : 'or', items };
  }

  private comparison(): ExpressionNode {
    const first = this.peek();
    const left = this.operand();
    const token = this.peek();
    if (token.kind !== 'op') {
      if (left.kind === 'literal') throw new ExpressionError(`a literal alone is no condition (expected ${GRAMMAR_HINT})`, first.start + 1);
      return { kind: 'present', operand: left };
    }
    this.next();
    const right = this.operand();
    if (left.kind === 'literal' && right.kind === 'literal') throw new ExpressionError('this compares two literals; one side must read the request ($.path, header[name] or query[name])', first.start + 1);
    if (token.text !== '==' && token.text !== '!=') {
      for (const side of [left, right]) {
        if (side.kind === 'literal' && typeof side.value !== 'number' && typeof side.value !== 'string') {
          throw new ExpressionError(`${token.text} compares numbers or strings, not ${JSON.stringify(side.value)}`, token.start + 1);
        }
      }
    }
    return { kind: 'compare', left, op: token.text, right };
  }

  private operand(): Operand {
    const token = this.next();
    switch (token.kind) {
      case 'jsonpath':
        try {
          return { kind: 'json', path: compileJsonPath(token.text) };
        } catch (e) {
          if (e instanceof PatternError) throw new ExpressionError(`the JSONPath ${JSON.stringify(token.text)} ${e.message}`, token.start + 1);
          throw e;
        }
      case 'header':
        return { kind: 'header', name: token.name.toLowerCase() };
      case 'query':
        return { kind: 'query', name: token.name };
      case 'string':
      case 'number':
        return { kind: 'literal', value: token.value };
      case 'word':
        if (Object.hasOwn(LITERAL_WORDS, token.text.toLowerCase())) return { kind: 'literal', value: LITERAL_WORDS[token.text.toLowerCase()] };
        throw new ExpressionError(`unknown word "${token.text}" (expected ${GRAMMAR_HINT})`, token.start + 1);
      default:
        throw this.unexpected(token, GRAMMAR_HINT);
    }
  }

  private expect(kind: Token['kind'], what: string): Token {
    const token = this.next();
    if (token.kind !== kind) throw this.unexpected(token, what);
    return token;
  }

  private peek(): Token {
    return this.tokens[this.at];
  }

  private next(): Token {
    const token = this.tokens[this.at];
    if (token.kind !== 'end') this.at++;
    return token;
  }

  private unexpected(token: Token, expected: string): ExpressionError {
    return new ExpressionError(`expected ${expected}, found ${describe(token)}`, token.start + 1);
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end';
    case 'jsonpath':
      return `the JSONPath ${token.text}`;
    case 'header':
    case 'query':
      return `${token.kind}[${token.name}]`;
    case 'string':
      return JSON.stringify(token.value);
    case 'number':
      return String(token.value);
    case 'word':
    case 'op':
      return `"${token.text}"`;
    default:
      return `"${token.kind}"`;
  }
}
