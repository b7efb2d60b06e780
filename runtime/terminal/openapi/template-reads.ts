import { parseTemplate, type Condition, type Operand, type TemplateEscape, type TemplateNode } from '../../../common/template/index.js';

/** One request value a template reads: a path parameter, a query value or a header (lower-case). */
export interface TemplateRead {
  source: 'path' | 'query' | 'header';
  name: string;
}

/**
 * The request values `text` (a template the build compiled with `escape`) reads, in all branches
 * of its `{{#if}}`s, each once; null when it reads the request body, which a cache key leaves out.
 */
export function templateReads(text: string, escape: TemplateEscape): TemplateRead[] | null {
  const reads = new Map<string, TemplateRead>();
  let body = false;
  const operand = (o: Operand): void => {
    if (o.kind !== 'request') return;
    if (o.source === 'body') body = true;
    else reads.set(`${o.source} ${o.path[0]}`, { source: o.source, name: o.path[0] });
  };
  const condition = (c: Condition): void => {
    if (c.kind === 'truthy') operand(c.operand);
    else {
      operand(c.left);
      operand(c.right);
    }
  };
  const walk = (nodes: TemplateNode[]): void => {
    for (const node of nodes) {
      if (node.kind === 'value') operand(node.expr);
      else if (node.kind === 'if') {
        condition(node.condition);
        walk(node.then);
        walk(node.else);
      }
    }
  };
  walk(parseTemplate(text, escape));
  return body ? null : [...reads.values()];
}
