import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AdminClient, type AdminTarget } from '../cli/admin-client.js';
import { registerTools } from './tools.js';

/** The MCP server of `mock mcp`: its tools, each one call of the admin API at `target`. */
export function createMcpServer(target: AdminTarget, version: string): McpServer {
  const server = new McpServer(
    { name: 'mock', version },
    {
      instructions:
        'Tools of a running `mock` API mock server, through its admin API: list routes and runtime mocks, create and delete mocks, read the request log and the unmatched requests with their closest routes, apply or reset chaos, read contract-diff statistics.',
    },
  );
  registerTools(server, new AdminClient(target));
  return server;
}

/**
 * Serves MCP on stdin/stdout until stdin ends. stdout carries the protocol alone, so every
 * message of ours goes to stderr. The admin is probed once at start: one that does not answer
 * yet is a warning, not a failure (agents start their MCP servers before the mock is up), and
 * each tool call says so again until it answers.
 */
export async function runMcp(target: AdminTarget, version: string, stderr: NodeJS.WritableStream): Promise<void> {
  const server = createMcpServer(target, version);
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  const probe = await new AdminClient(target, 3_000).request('GET', 'health').catch((e: Error) => e);
  if (probe instanceof Error) stderr.write(`mock mcp: ${probe.message}; the tools will answer with this error until it is up\n`);
  else stderr.write(`mock mcp: serving MCP on stdio for the admin API at ${new AdminClient(target).shown}\n`);
  await ended;
  await server.close();
}
