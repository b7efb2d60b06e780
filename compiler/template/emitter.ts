import { insertHelper, type Condition, type Operand, type TemplateEscape, type TemplateNode, type ValueExpr } from '../../common/template/index.js';

/**
 * JS source of `(t, c) => string`: one concatenation, `{{#if}}` as a ternary. Literals go
 * through JSON.stringify so the source is valid and the same for the same template.
 */
export function emitTemplate(nodes: TemplateNode[], escape: TemplateEscape): string {
  return `(t, c) => ${emitNodes(nodes, insertHelper(escape))}`;
}

function emitNodes(nodes: TemplateNode[], insert: string): string {
  // Adjacent literal text becomes one string literal.
  const parts: string[] = [];
  let literal: string | undefined;
  for (const node of nodes) {
    if (node.kind === 'text') {
      literal = (literal ?? '') + node.text;
      continue;
    }
    if (literal !== undefined) parts.push(JSON.stringify(literal));
    literal = undefined;
    parts.push(node.kind === 'value' ? `t.${insert}(${emitValue(node.expr)})` : node.kind === 'plugin' ? emitPlugin(node, insert) : emitIf(node, insert));
  }
  if (literal !== undefined || parts.length === 0) parts.push(JSON.stringify(literal ?? ''));
  return parts.join(' + ');
}

function emitIf(node: Extract<TemplateNode, { kind: 'if' }>, insert: string): string {
  return `(${emitCondition(node.condition)} ? ${emitNodes(node.then, insert)} : ${emitNodes(node.else, insert)})`;
}

function emitPlugin(node: Extract<TemplateNode, { kind: 'plugin' }>, insert: string): string {
  return `t.plugin(${[node.plugin, node.action, node.input, node.source, insert].map((s) => JSON.stringify(s)).join(', ')})`;
}

function emitValue(expr: ValueExpr): string {
  switch (expr.kind) {
    case 'uuid':
      return 't.uuid()';
    case 'now':
      return `t.now(${expr.offsetMs})`;
    case 'randInt':
    case 'randFloat':
      return `t.${expr.kind}(${expr.min}, ${expr.max})`;
    case 'faker':
      return `t.faker(${JSON.stringify(expr.module)}, ${JSON.stringify(expr.method)})`;
    case 'request':
      return expr.source === 'body'
        ? `t.body(c, ${JSON.stringify(expr.path)})`
        : `t.${expr.source}(c, ${JSON.stringify(expr.path[0])})`;
    case 'var':
      return `c.vars?.[${JSON.stringify(expr.name)}]`;
  }
}

function emitCondition(condition: Condition): string {
  if (condition.kind === 'truthy') {
    const { operand } = condition;
    return `t.truthy(${operand.kind === 'literal' ? JSON.stringify(operand.value) : emitValue(operand)})`;
  }
  // Compared as text, so `(eq request.body.count 5)` matches the number 5 and the string "5".
  const op = condition.op === 'eq' ? '===' : '!==';
  return `${emitText(condition.left)} ${op} ${emitText(condition.right)}`;
}

function emitText(operand: Operand): string {
  return operand.kind === 'literal' ? JSON.stringify(operand.value) : `t.str(${emitValue(operand)})`;
}
