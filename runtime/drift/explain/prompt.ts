import type { ExplainGroup } from './group.js';

/** Mismatches of one group the prompt lists, and the characters of each message: a prompt stays small whatever the traffic. */
export const PROMPT_MISMATCHES = 10;
const MESSAGE_CHARS = 200;

export const SYSTEM_PROMPT =
  'You explain API contract drift to developers. Given mismatches between observed HTTP traffic and the API description, ' +
  'say in at most three sentences what most likely changed and whether the client, the server or the description should be fixed. Plain text, no Markdown.';

/** The user message: the operation, then one line a mismatch. */
export function groupPrompt(group: ExplainGroup): string {
  const lines = group.mismatches.slice(0, PROMPT_MISMATCHES).map((m) => {
    const seen = m.count === undefined || m.count <= 1 ? '' : ` (seen ${m.count} times)`;
    return `- ${m.type} [${m.severity}] ${m.location} ${m.field}: ${m.message.slice(0, MESSAGE_CHARS)}${seen}`;
  });
  const more = group.mismatches.length > PROMPT_MISMATCHES ? [`- … ${group.mismatches.length - PROMPT_MISMATCHES} more`] : [];
  const operation = `${group.method.toUpperCase()} ${group.path}${group.operation === undefined ? '' : ` (${group.operation})`}`;
  return [`Operation: ${operation}`, 'Mismatches:', ...lines, ...more].join('\n');
}
