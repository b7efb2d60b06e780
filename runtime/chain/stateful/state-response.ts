import type { Answer } from '../exchange/index.js';
import { templateRenderer, type TemplateContext, type TemplateRuntime } from '../../template/index.js';
import type { StateConfig } from './config.js';

/** The name a state's body_template reads the resource id by. */
export const RESOURCE_ID = 'resource_id';

/** A state's answer for one request; the context's vars hold RESOURCE_ID. */
export type StateAnswer = (context: TemplateContext, templates: TemplateRuntime) => Answer;

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];
const TEXT_TYPE: [string, string] = ['content-type', 'text/plain; charset=utf-8'];

/**
 * A state's response compiled once. Its body_template always renders (`{{resource_id}}` and every
 * template token), whatever response_template_expand says: a state machine's answers are templates
 * by definition. A template that is a YAML value, or a string that is JSON text, renders as JSON
 * (values inserted into its strings are escaped) and is sent as application/json; any other string
 * is sent as application/json when what it renders is JSON, else as text/plain. Throws
 * TemplateSyntaxError for a malformed token.
 */
export function compileStateAnswer(response: NonNullable<StateConfig['response']>): StateAnswer {
  const status = response.status_code ?? 200;
  const template = response.body_template;
  if (template === undefined) {
    const empty: Answer = { status, headers: [], body: '', source: 'state_machine' };
    return () => empty;
  }
  const text = typeof template === 'string' ? template : JSON.stringify(template);
  const json = typeof template !== 'string' || isJson(template);
  if (!text.includes('{{')) {
    const literal: Answer = { status, headers: [json ? JSON_TYPE : TEXT_TYPE], body: text, source: 'state_machine' };
    return () => literal;
  }
  const render = templateRenderer(text, json ? 'json' : 'none', [RESOURCE_ID]);
  return (context, templates) => {
    const body = render(templates, context);
    return { status, headers: [json || isJson(body) ? JSON_TYPE : TEXT_TYPE], body, source: 'state_machine' };
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
