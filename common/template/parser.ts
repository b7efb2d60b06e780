import type { Condition, TemplateEscape, TemplateNode } from './ast.js';
import { parseCondition } from './condition.js';
import { TemplateSyntaxError } from './errors.js';
import { tokenize, type Segment } from './tokenizer.js';
import { parseValueToken } from './value-token.js';
import { pluginArgs } from './plugin-args.js';

type TagSegment = Extract<Segment, { kind: 'tag' }>;

/** What one tag means on its own; undefined for unknown tags, which stay literal. */
export type Tag =
  | { kind: 'if'; condition: Condition }
  | { kind: 'else' }
  | { kind: 'endif' }
  | Extract<TemplateNode, { kind: 'value' | 'plugin' }>;

const IF = /^#if(?:\s+([\s\S]*))?$/;
const PLUGIN = /^plugin:([^:\s]+):([^(\s]+)\(([\s\S]*)\)$/;

/** `vars`: names the caller gives values to (parseValueToken). */
export function parseTag(tag: TagSegment, vars: readonly string[] = []): Tag | undefined {
  const { body, offset } = tag;
  if (body === 'else') return { kind: 'else' };
  if (body === '/if') return { kind: 'endif' };
  const ifTag = IF.exec(body);
  if (ifTag) {
    if (!ifTag[1]) throw new TemplateSyntaxError('{{#if}} without a condition', offset);
    return { kind: 'if', condition: parseCondition(ifTag[1].trim(), offset, vars) };
  }
  if (body.startsWith('plugin:')) {
    const call = PLUGIN.exec(body);
    if (!call) throw new TemplateSyntaxError(`malformed plugin call {{${body}}}, expected {{plugin:<plugin>:<action>(<args>)}}`, offset);
    return { kind: 'plugin', plugin: call[1], action: call[2], input: pluginArgs(call[3], offset), source: tag.source };
  }
  const expr = parseValueToken(body, offset, vars);
  return expr && { kind: 'value', expr };
}

interface OpenIf {
  node: Extract<TemplateNode, { kind: 'if' }>;
  offset: number;
  inElse: boolean;
}

/**
 * Builds the block structure; `{{#if}}` nests, `{{else}}` is optional. `vars` are names the caller
 * gives values to in the context (`{{resource_id}}`); elsewhere they stay literal text.
 */
export function parseTemplate(text: string, escape: TemplateEscape, vars: readonly string[] = []): TemplateNode[] {
  const root: TemplateNode[] = [];
  const open: OpenIf[] = [];
  const current = (): TemplateNode[] => {
    const top = open.at(-1);
    return top === undefined ? root : top.inElse ? top.node.else : top.node.then;
  };
  const pushText = (text: string): void => {
    const nodes = current();
    const last = nodes.at(-1);
    if (last?.kind === 'text') last.text += text;
    else nodes.push({ kind: 'text', text });
  };

  for (const segment of tokenize(text, escape)) {
    if (segment.kind === 'text') {
      pushText(segment.text);
      continue;
    }
    const tag = parseTag(segment, vars);
    if (tag === undefined) {
      pushText(segment.source);
    } else if (tag.kind === 'if') {
      const node: OpenIf['node'] = { kind: 'if', condition: tag.condition, then: [], else: [] };
      current().push(node);
      open.push({ node, offset: segment.offset, inElse: false });
    } else if (tag.kind === 'else') {
      const top = open.at(-1);
      if (top === undefined) throw new TemplateSyntaxError('{{else}} outside {{#if}}', segment.offset);
      if (top.inElse) throw new TemplateSyntaxError('second {{else}} in one {{#if}}', segment.offset);
      top.inElse = true;
    } else if (tag.kind === 'endif') {
      if (open.pop() === undefined) throw new TemplateSyntaxError('{{/if}} without {{#if}}', segment.offset);
    } else {
      current().push(tag);
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) throw new TemplateSyntaxError('unclosed {{#if}}', unclosed.offset);
  return root;
}
