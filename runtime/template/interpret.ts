import { insertHelper, parseTemplate, type Condition, type Operand, type TemplateEscape, type TemplateNode, type ValueExpr } from '../../common/template/index.js';
import type { Render, TemplateContext, TemplateRuntime } from '../../common/contract/index.js';

/**
 * A template that arrives at run time (a mock created over the admin API, a state's body_template,
 * `mock data template`) rendered by walking its AST: the same result as the compiler's emitted code
 * (compiler/template), without turning text from outside into code. `vars` name values the caller
 * puts in the context's `vars`. Throws TemplateSyntaxError like the compiler.
 */
export function templateRenderer(text: string, escape: TemplateEscape, vars: readonly string[] = []): Render {
  const nodes = parseTemplate(text, escape, vars);
  const insert = insertHelper(escape);
  return (t, c) => renderNodes(nodes, insert, t, c);
}

function renderNodes(nodes: readonly TemplateNode[], insert: 'json' | 'str', t: TemplateRuntime, c: TemplateContext): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'plugin':
        out += t.plugin(node.plugin, node.action, node.input, node.source, insert);
        break;
      case 'value':
        out += t[insert](value(node.expr, t, c));
        break;
      case 'if':
        out += renderNodes(holds(node.condition, t, c) ? node.then : node.else, insert, t, c);
        break;
    }
  }
  return out;
}

function value(expr: ValueExpr, t: TemplateRuntime, c: TemplateContext): unknown {
  switch (expr.kind) {
    case 'uuid':
      return t.uuid();
    case 'now':
      return t.now(expr.offsetMs);
    case 'randInt':
      return t.randInt(expr.min, expr.max);
    case 'randFloat':
      return t.randFloat(expr.min, expr.max);
    case 'faker':
      return t.faker(expr.module, expr.method);
    case 'request':
      return expr.source === 'body' ? t.body(c, expr.path) : t[expr.source](c, expr.path[0]);
    case 'var':
      return c.vars !== undefined && Object.hasOwn(c.vars, expr.name) ? c.vars[expr.name] : undefined;
  }
}

function holds(condition: Condition, t: TemplateRuntime, c: TemplateContext): boolean {
  if (condition.kind === 'truthy') {
    const { operand } = condition;
    return t.truthy(operand.kind === 'literal' ? operand.value : value(operand, t, c));
  }
  // compared as text, as the emitted code does
  const equal = text(condition.left, t, c) === text(condition.right, t, c);
  return condition.op === 'eq' ? equal : !equal;
}

function text(operand: Operand, t: TemplateRuntime, c: TemplateContext): string {
  return operand.kind === 'literal' ? operand.value : t.str(value(operand, t, c));
}
