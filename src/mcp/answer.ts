import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AdminClient } from '../cli/admin-client.js';

/**
 * One admin call as a tool's result: the data as JSON text (and as structuredContent, which must
 * be an object: a list goes under `key`), or the admin's refusal as an error result that keeps its
 * status and message (a 401/403 says which token or role is missing). An admin nobody answers is
 * an error result naming the URL and the fix, never a failed MCP request: the agent can read it.
 */
export async function adminResult(client: AdminClient, method: string, endpoint: string, key: string, body?: unknown): Promise<CallToolResult> {
  const shown = `${method} /__mock/api/${endpoint.replace(/\?.*$/, '')}`;
  let answer;
  try {
    answer = await client.request(method, endpoint, body);
  } catch (e) {
    return failure((e as Error).message);
  }
  if (answer.error !== undefined) return failure(`${shown}: HTTP ${answer.status}: ${answer.error}${advice(answer.status, answer.error, client.target.token !== undefined)}`);
  const structured = answer.data !== null && typeof answer.data === 'object' && !Array.isArray(answer.data) ? (answer.data as Record<string, unknown>) : { [key]: answer.data };
  return { content: [{ type: 'text', text: JSON.stringify(answer.data, null, 2) }], structuredContent: structured };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What the person who configured `mock mcp` can change: the admin decided, the MCP server only relays. */
function advice(status: number, error: string, hasToken: boolean): string {
  // the admin client already says which flag carries the hosted-mode token
  if (error.includes('X-Mock-Management-Token')) return '';
  const login = 'the access_token of POST /__mock/auth/login';
  if (status === 401) return hasToken ? ` (restart mock mcp with a fresh --token or MOCK_ADMIN_TOKEN: ${login})` : ` (start mock mcp with --token or MOCK_ADMIN_TOKEN: ${login})`;
  // the Host and Origin guards answer 403 too, with their own fix
  if (status === 403 && error.startsWith('role ')) return ' (give mock mcp the token of a user with a role named)';
  return '';
}
