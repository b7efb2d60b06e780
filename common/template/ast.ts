/** What a template is made of once parsed; the emitter turns it into JS. */

/** Where inserted values land: inside a JSON string literal, or raw text. */
export type TemplateEscape = 'json' | 'none';

export type RequestSource = 'path' | 'query' | 'header' | 'body';

export type ValueExpr =
  | { kind: 'uuid' }
  | { kind: 'now'; offsetMs: number }
  | { kind: 'randInt'; min: number; max: number }
  | { kind: 'randFloat'; min: number; max: number }
  | { kind: 'faker'; module: string; method: string }
  /** `path` is the name for path/query/header (header lower-cased), the field path for body. */
  | { kind: 'request'; source: RequestSource; path: string[] }
  /** A value the caller names when it parses (`{{resource_id}}` of a state machine), read from the context's `vars`. */
  | { kind: 'var'; name: string };

export type Operand = { kind: 'literal'; value: string } | ValueExpr;

export type Condition =
  | { kind: 'truthy'; operand: Operand }
  | { kind: 'compare'; op: 'eq' | 'ne'; left: Operand; right: Operand };

export type TemplateNode =
  /** Text copied as-is (already escaped for the target when escape is 'json'). */
  | { kind: 'text'; text: string }
  | { kind: 'value'; expr: ValueExpr }
  /** A plugin action's call: `input` is its arguments as JSON array text; `source` renders where no plugins are loaded. */
  | { kind: 'plugin'; plugin: string; action: string; input: string; source: string }
  | { kind: 'if'; condition: Condition; then: TemplateNode[]; else: TemplateNode[] };
