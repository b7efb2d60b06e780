import type { AiOperation } from './ai-options.js';
import type { RequestShape } from './request-shape.js';

/** Characters of the schema, the request body and each example the prompt holds at most: a prompt stays small whatever the request. */
const SCHEMA_CHARS = 16_000;
const BODY_CHARS = 4000;
const EXAMPLE_CHARS = 2000;

export const AI_SYSTEM_PROMPT =
  'You write the JSON body of an HTTP API response for a mock server. Answer with one JSON value only, no prose and no Markdown. ' +
  'It must be valid against the given JSON Schema, plausible for the request, and follow the rules given.';

const clipped = (text: string, chars: number): string => (text.length <= chars ? text : `${text.slice(0, chars)}…`);

/** The user message: the operation, its response schema, the request, the rules, then examples of real answers. */
export function aiPrompt(operation: AiOperation, request: RequestShape, examples: readonly string[]): string {
  const lines = [
    `Operation: ${operation.key}`,
    `Response: ${operation.status} ${operation.contentType}`,
    `Response JSON Schema: ${clipped(JSON.stringify(operation.schema), SCHEMA_CHARS)}`,
    `Request: ${request.method} ${request.path}`,
    `Request parameters: ${JSON.stringify(request.params)}`,
  ];
  if (request.body !== undefined) lines.push(`Request body: ${clipped(JSON.stringify(request.body), BODY_CHARS)}`);
  if (operation.rules.length > 0) lines.push('Rules:', ...operation.rules.map((rule) => `- ${rule}`));
  if (examples.length > 0) lines.push('Examples of real answers of this operation:', ...examples.map((example) => `- ${clipped(example, EXAMPLE_CHARS)}`));
  return lines.join('\n');
}

/** The JSON value in a model's answer (a Markdown code fence around it is taken off), or undefined when there is none. */
export function jsonOfAnswer(content: string): unknown {
  let text = content.trim();
  if (text.startsWith('```') && text.endsWith('```')) {
    const firstLine = text.indexOf('\n');
    text = firstLine === -1 ? '' : text.slice(firstLine + 1, -3);
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
