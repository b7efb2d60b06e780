import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { ANSWER_SOURCES } from '../../common/answer-source.js';
import type { AdminClient } from '../cli/admin-client.js';
import { adminResult } from './answer.js';

/** A condition of the admin's one dialect: `{equals}`, `{matches}`, `{present}`, a plain value, or a bare string (a whole-value RE2 regex). The admin checks it. */
const conditions = (what: string) => z.record(z.string(), z.unknown()).optional().describe(`${what}: name -> condition ({"equals": v}, {"matches": "re2"}, {"present": true}, or a bare string regex)`);

const createMockInput = {
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ANY']).describe('HTTP method the mock answers, or ANY'),
  path: z.string().startsWith('/').describe('Request path, starting with /; {param} captures one segment (e.g. /v1/pets/{id})'),
  status_code: z.number().int().min(100).max(599).optional().describe('Status of the answer (default 200)'),
  body: z.unknown().optional().describe('Response body: any JSON value (a string is served as text/plain, anything else as JSON)'),
  headers: z.record(z.string(), z.string()).optional().describe('Response headers'),
  id: z.string().optional().describe('Id to give the mock (letters, digits, . _ ~ -); generated when left out'),
  name: z.string().optional().describe('A name for people (default "METHOD path")'),
  priority: z.number().int().optional().describe('Higher wins among matching mocks (default 0)'),
  latency_ms: z.number().int().min(0).max(3_600_000).optional().describe('Delay before answering, in milliseconds'),
  enabled: z.boolean().optional().describe('Serve it at once (default true)'),
  match_headers: conditions('Headers that must match'),
  match_query: conditions('Query parameters that must match'),
  match_json_path: conditions('RFC 9535 JSONPath of the JSON body'),
};

/** What get_request_log returns when not told: enough to see what happened, not a whole log in an agent's context. */
const LOG_LIMIT = 50;

const logInput = {
  method: z
    .string()
    .regex(/^[A-Za-z]+$/)
    .optional()
    .describe('Only requests with this HTTP method'),
  path: z.string().optional().describe('Only requests whose path matches this glob (/v1/pets/*, /v1/**; without * that path)'),
  status: z.string().optional().describe('Only answers with this HTTP status (404) or gRPC status name (NOT_FOUND)'),
  source: z
    .enum(ANSWER_SOURCES)
    .optional()
    .describe('Only answers from this source: example or generated (the description), runtime_mock, custom_route, fixture, proxy, chaos (an injected fault), refusal, unmatched (no route), ...'),
  unmatched: z.boolean().optional().describe('true: only requests no route or mock matched; false: only matched ones'),
  limit: z.number().int().min(1).max(10_000).default(LOG_LIMIT).describe(`At most this many entries, newest first (default ${LOG_LIMIT}: entries carry headers and bodies, so a whole log is large)`),
};

/** `?a=1&b=2` of the given values, those left out skipped. */
function queryOf(values: Record<string, string | number | boolean | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Every tool is one call of the running server's admin API, with the token it was started with:
 * what the admin refuses (a role, a hosted-mode token) the tool returns as its error.
 */
export function registerTools(server: McpServer, client: AdminClient): void {
  const read = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'list_routes',
    {
      title: 'List routes',
      description: 'List every route the running mock serves: those of the API description, mock.yaml custom routes and runtime mocks, with method, path, protocol and source.',
      annotations: read,
    },
    () => adminResult(client, 'GET', 'routes', 'routes'),
  );

  server.registerTool(
    'list_mocks',
    { title: 'List runtime mocks', description: 'List the runtime mocks (created through the admin API or create_mock) with their ids, conditions and answers.', annotations: read },
    () => adminResult(client, 'GET', 'mocks', 'mocks'),
  );

  server.registerTool(
    'create_mock',
    {
      title: 'Create a runtime mock',
      description:
        'Add a runtime mock to the running server: served at once, before the API description. Returns the stored mock with its id (for delete_mock). Needs the editor role when admin auth is on.',
      inputSchema: createMockInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ body, headers, ...fields }) => {
      const response = body === undefined && headers === undefined ? undefined : { ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) };
      return adminResult(client, 'POST', 'mocks', 'mock', { ...fields, ...(response === undefined ? {} : { response }) });
    },
  );

  server.registerTool(
    'delete_mock',
    {
      title: 'Delete a runtime mock',
      description: 'Delete one runtime mock by its id (list_mocks shows the ids); its path answers as before the mock again. Needs the editor role when admin auth is on.',
      inputSchema: { id: z.string().min(1).describe('Id of the runtime mock') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => adminResult(client, 'DELETE', `mocks/${encodeURIComponent(id)}`, 'mock'),
  );

  server.registerTool(
    'get_request_log',
    {
      title: 'Read the request log',
      description: 'Read the requests the running mock answered, newest first: method, path, status, which source answered (route, runtime_mock, chaos, unmatched ...) and timings. Filters combine.',
      inputSchema: logInput,
      annotations: read,
    },
    (filter) => adminResult(client, 'GET', `logs${queryOf(filter)}`, 'entries'),
  );

  server.registerTool(
    'get_unmatched_requests',
    {
      title: 'Read unmatched requests',
      description:
        'Requests no route or runtime mock matched (answered 404/405), newest first, each with the routes it came closest to and every field each of them failed on: what to fix in the client or what mock to add.',
      inputSchema: { limit: z.number().int().min(1).max(10_000).optional().describe('At most this many requests (default 50)') },
      annotations: read,
    },
    ({ limit }) => adminResult(client, 'GET', `unmatched${queryOf({ limit })}`, 'unmatched'),
  );

  server.registerTool(
    'list_chaos_profiles',
    { title: 'List chaos profiles', description: 'List the chaos profiles apply_chaos_profile takes: built-in (slow_3g, flaky_wifi, ...) and custom ones.', annotations: read },
    () => adminResult(client, 'GET', 'chaos/profiles', 'profiles'),
  );

  server.registerTool(
    'apply_chaos_profile',
    {
      title: 'Apply a chaos profile',
      description: 'Apply a chaos profile to the running mock at once (its latency, bandwidth, packet loss and faults); reset_chaos turns chaos off again. Needs the admin role when admin auth is on.',
      inputSchema: { name: z.string().min(1).describe('Profile name: slow_3g, fast_3g, flaky_wifi, high_latency, unstable_connection, cable, dialup or a custom one') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ name }) => adminResult(client, 'POST', `chaos/profiles/${encodeURIComponent(name)}/apply`, 'applied'),
  );

  server.registerTool(
    'reset_chaos',
    {
      title: 'Reset chaos',
      description:
        'Put the chaos settings of the running mock back to those it started with (the chaos part of apply_chaos_profile; the global latency a profile set stays). Needs the admin role when admin auth is on.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => adminResult(client, 'POST', 'chaos/config/reset', 'chaos'),
  );

  server.registerTool(
    'get_contract_diff_statistics',
    {
      title: 'Contract-diff statistics',
      description: 'Statistics of the captured real requests analysed against the served API description (contract drift): how many captures, analysed, with mismatches, by kind.',
      annotations: read,
    },
    () => adminResult(client, 'GET', 'contract-diff/statistics', 'statistics'),
  );
}
