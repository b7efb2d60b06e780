import { PluginHooks } from '../plugin-hooks/index.js';
import type { Answer, Exchange } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import type { PluginHost } from '../../plugins/index.js';

/**
 * plugins.response_modifiers: every answer made inside this slot (the description's, a mock's, the
 * proxy's, a refusal) is given to each selected action before delivery, which answers what it
 * changes: `{"status"?, "headers"?, "body"?}` (headers added or replaced; a body that is not text
 * is sent as JSON).
 */
export const pluginResponseStage = defineStage({ slot: 'plugin-response', kinds: ['description'] }, ({ plugins }) => {
  if (plugins === undefined || plugins.options.responseModifiers.length === 0) return undefined;
  const hooks = new PluginHooks(plugins.options.responseModifiers);
  return {
    appliesTo: (route) => hooks.reach(route),
    run(ex, next) {
      const selected = hooks.of(ex);
      if (selected.length === 0) return next(ex);
      return afterNext(next(ex), (answer) => selected.reduce((current, { plugin, action }) => modified(plugins, plugin, action, ex, current), answer));
    },
  };
});

function modified(plugins: PluginHost, plugin: string, action: string, ex: Exchange, answer: Answer): Answer {
  const body = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
  const input = JSON.stringify({ request: { method: ex.method, path: ex.path }, status: answer.status, headers: Object.fromEntries(answer.headers), body });
  const change = plugins.call(plugin, action, input) as { status?: unknown; headers?: unknown; body?: unknown } | null;
  const fail = (reason: string): never => {
    throw plugins.misanswered(plugin, action, reason);
  };
  if (change === null || typeof change !== 'object' || Array.isArray(change)) return fail('it answered no {"status"?, "headers"?, "body"?} object');
  let { status, headers } = answer;
  if (change.status !== undefined) {
    if (!Number.isInteger(change.status) || (change.status as number) < 100 || (change.status as number) > 599) return fail(`it answered status ${JSON.stringify(change.status)}, not 100-599`);
    status = change.status as number;
  }
  if (change.headers !== undefined) {
    if (change.headers === null || typeof change.headers !== 'object' || Object.values(change.headers).some((v) => typeof v !== 'string')) return fail('it answered headers that are not {name: text}');
    const set = new Map(Object.entries(change.headers as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]));
    headers = [...headers.filter(([name]) => !set.has(name.toLowerCase())), ...set];
  }
  const newBody = change.body === undefined ? answer.body : typeof change.body === 'string' ? change.body : JSON.stringify(change.body);
  return { ...answer, status, headers, body: newBody };
}
