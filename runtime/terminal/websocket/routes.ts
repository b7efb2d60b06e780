import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../../common/errors.js';
import { PatternError } from '../../../common/patterns/index.js';
import { TemplateSyntaxError } from '../../../common/template/index.js';
import { ScriptLineError, compileMessageMatcher, parseScript, readScriptLine, scriptProblemLine } from '../../../common/websocket/index.js';
import { matchesPath, parsePathPattern, pathParams, splitRequestPath, type PathPattern } from '../../match/index.js';
import { echo } from './echo.js';
import { messageAnswers, replyRenderer, type CompiledAnswer, type CompiledAnswers } from './message-answers.js';
import type { WsAnswerSpec, WsBinarySpec, WsRouteSpec } from './route-spec.js';
import { compileScript, scriptPlayer, type CompiledScript } from './script-player.js';
import type { WsBehaviour } from './session.js';

/** What plays on a connection: a fresh behaviour per connection, and the key its statistics go under. */
export interface WsTarget {
  /** A route of websocket.routes took the path (false: the fallback plays). */
  claimed: boolean;
  /** The route's position in websocket.routes; -1 when none claims the path. */
  index: number;
  pathKey: string;
  params: Record<string, string>;
  behaviour: () => WsBehaviour;
}

interface CompiledRoute {
  index: number;
  pattern: PathPattern;
  key: string;
  behaviour: () => WsBehaviour;
}

/**
 * The routes of websocket.routes in their order (the first whose path matches plays), then, for
 * paths no route claims, websocket.replay_file when one is given, else an echo.
 */
export class WsRoutes {
  private constructor(
    private readonly routes: readonly CompiledRoute[],
    private readonly fallback: () => WsBehaviour,
    readonly scripts: number,
  ) {}

  /** Reads every script and checks every route once; a problem is a MockError naming the key or file and line. */
  static compile(specs: readonly WsRouteSpec[], replayFile: string | undefined): WsRoutes {
    let scripts = 0;
    const routes = specs.map((spec, i) => {
      const where = `websocket.routes[${i}]`;
      const pattern = routeField(where, 'path', () => parsePathPattern(spec.path));
      const kinds = [spec.script !== undefined, spec.echo === true, spec.messages !== undefined || spec.on_open !== undefined].filter(Boolean).length;
      if (kinds !== 1) throw new MockError('MOCK_ERR_WS_ROUTE', `${where} (${spec.path}) must have exactly one of script (a replay file), echo: true, or messages/on_open (template answers)`);
      let behaviour: () => WsBehaviour;
      if (spec.script !== undefined) {
        const script = loadScript(spec.script, `${where}.script`);
        scripts++;
        behaviour = () => scriptPlayer(script);
      } else if (spec.echo === true) behaviour = echo;
      else {
        const answers = compileAnswers(spec, where);
        behaviour = () => messageAnswers(answers);
      }
      return { index: i, pattern, key: spec.path, behaviour };
    });
    let fallback: () => WsBehaviour = echo;
    if (replayFile !== undefined) {
      const script = loadScript(replayFile, 'websocket.replay_file');
      scripts++;
      fallback = () => scriptPlayer(script);
    }
    return new WsRoutes(routes, fallback, scripts);
  }

  /** Hot path of an upgrade. */
  find(requestPath: string): WsTarget {
    const segments = splitRequestPath(requestPath);
    for (const route of this.routes) {
      if (matchesPath(route.pattern, segments)) return { claimed: true, index: route.index, pathKey: route.key, params: pathParams(route.pattern, segments), behaviour: route.behaviour };
    }
    return { claimed: false, index: -1, pathKey: requestPath, params: {}, behaviour: this.fallback };
  }
}

/** A replay script read and checked; every malformed line is reported at once. */
export function loadScript(file: string, key: string): CompiledScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockError('MOCK_ERR_WS_SCRIPT', `${key}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}); give a JSON Lines replay script, relative to mock.yaml`);
  }
  const { script, problems } = parseScript(text);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((p) => scriptProblemLine(file, p));
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    throw new MockError('MOCK_ERR_WS_SCRIPT', `${key}: ${problems.length} malformed line(s): ${shown.join('; ')}${more} (docs/websocket.md lists the fields)`);
  }
  return compileScript(`script ${path.basename(file)}`, script);
}

function compileAnswers(spec: WsRouteSpec, where: string): CompiledAnswers {
  const specs = spec.messages ?? [];
  const vars = specs.flatMap((answer, i) => Object.keys(answer.capture ?? {}).concat(groupNames(answer.match, `${where}.messages[${i}].match`)));
  const onOpen = (spec.on_open ?? []).map((reply, i) => routeField(where, `on_open[${i}]`, () => replyOf(reply, vars)));
  const answers = specs.map((answer, i) => compileAnswer(answer, `${where}.messages[${i}]`, vars));
  return { onOpen, answers, unmatched: spec.unmatched ?? 'ignore' };
}

function compileAnswer(spec: WsAnswerSpec, where: string, vars: readonly string[]): CompiledAnswer {
  const matcher = routeField(where, 'match', () => compileMessageMatcher(spec.match, spec.capture));
  const replies = spec.reply === undefined ? [] : Array.isArray(spec.reply) ? spec.reply : [spec.reply];
  const compiled = replies.map((reply, i) => routeField(where, `reply${Array.isArray(spec.reply) ? `[${i}]` : ''}`, () => replyOf(reply, vars)));
  let close: CompiledAnswer['close'];
  if (spec.close !== undefined) {
    // the replay script's close checks, one line's worth
    close = routeField(where, 'close', () => readScriptLine({ ts: 0, dir: 'out', close: spec.close }, 0, []).close);
  }
  if (compiled.length === 0 && close === undefined) throw new MockError('MOCK_ERR_WS_ROUTE', `${where} needs reply (a message or a list of them) or close`);
  return { matcher, replies: compiled, delayMs: spec.delay_ms ?? 0, close };
}

function replyOf(reply: string | WsBinarySpec, vars: readonly string[]): ReturnType<typeof replyRenderer> | Uint8Array {
  if (typeof reply === 'string') return replyRenderer(reply, vars);
  const step = readScriptLine({ ts: 0, dir: 'out', ...reply }, 0, []);
  return step.binary ?? replyRenderer(reply.text, vars);
}

/** Regex named groups a match declares, so that replies may use them. */
function groupNames(match: unknown, where: string): string[] {
  if (typeof match !== 'string' || match.startsWith('$')) return [];
  return routeField(where, '', () => compileMessageMatcher(match).names) as string[];
}

/** Runs a check of one field, turning its error into a MockError naming the key. */
function routeField<T>(where: string, field: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof PatternError || e instanceof ScriptLineError || e instanceof TemplateSyntaxError) {
      throw new MockError('MOCK_ERR_WS_ROUTE', `${where}${field === '' ? '' : `.${field}`}: ${e.message}`);
    }
    throw e;
  }
}
