import { PatternError } from '../patterns/index.js';
import { TemplateSyntaxError, parseTemplate, type TemplateEscape } from '../template/index.js';
import { compileMessageMatcher, type MessageMatcher } from './message-matcher.js';

/**
 * One line of a WebSocket replay script (JSON Lines), the spec's `{ts, dir, text, waitFor}` and
 * the fields mock adds (docs/websocket.md):
 *
 * - `ts`: milliseconds from the connection's opening when the line is due;
 * - `dir`: `out` (the mock sends `text`) or `in` (the client is expected to send a message);
 * - `text`: `out`: the message, with template tokens; `in`: what the client sent when the script
 *   was recorded (documentation: only `waitFor` makes a message required);
 * - `waitFor`: holds the script until a client message matches (message-matcher.ts); on an `in`
 *   line, the message it expects;
 * - `encoding: "base64"`: `text` holds the bytes of a binary frame;
 * - `capture`: names for values of the matching message (`{"order": "$.order.id"}`);
 * - `close: {code, reason}` on an `out` line: the mock closes the connection (after `text`, when
 *   the line has one).
 */
export interface ScriptLineJson {
  ts: number;
  dir: 'in' | 'out';
  text?: string;
  waitFor?: string | Record<string, unknown>;
  encoding?: 'base64';
  capture?: Record<string, string>;
  close?: { code?: number; reason?: string };
}

/** A line read and checked: its matcher compiled, its binary payload decoded. */
export interface ScriptStep {
  /** 1-based line number in the file. */
  line: number;
  ts: number;
  dir: 'in' | 'out';
  /** The text as written (a template on `out` lines), or undefined. */
  text?: string;
  /** The bytes of a binary `out` frame. */
  binary?: Uint8Array;
  /** Present when the line waits for a client message (every `in` line does). */
  waitFor?: MessageMatcher;
  /** The source of waitFor, for messages. */
  waitForSource?: string;
  close?: { code: number; reason: string };
  json: ScriptLineJson;
}

const FIELDS = new Set(['ts', 'dir', 'text', 'waitFor', 'encoding', 'capture', 'close']);
/** What a close frame's reason may hold (RFC 6455 5.5: 125 bytes of payload, 2 of them the code). */
export const MAX_CLOSE_REASON_BYTES = 123;

/** A problem in words that fit after "line N: ". */
export class ScriptLineError extends Error {}

/** Whether a close code may be sent by an application (RFC 6455 7.4). */
export const sendableCloseCode = (code: number): boolean => Number.isInteger(code) && (code === 1000 || (code >= 3000 && code <= 4999));

/**
 * Checks one parsed line; `vars` are every name captured anywhere in the script (templates may
 * use them before they are set: they render empty). Throws ScriptLineError.
 */
export function readScriptLine(value: unknown, line: number, vars: readonly string[]): ScriptStep {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScriptLineError('must be a JSON object such as {"ts": 0, "dir": "out", "text": "hello"}');
  const json = value as Record<string, unknown>;
  const unknown = Object.keys(json).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw new ScriptLineError(`unknown field ${JSON.stringify(unknown)} (fields: ${[...FIELDS].join(', ')})`);
  const { ts, dir, text, encoding, close } = json;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0) throw new ScriptLineError(`ts must be milliseconds from the connection's opening, a number ≥ 0 (got ${JSON.stringify(ts)})`);
  if (dir !== 'in' && dir !== 'out') throw new ScriptLineError(`dir must be "in" (the client sends) or "out" (the mock sends) (got ${JSON.stringify(dir)})`);
  if (text !== undefined && typeof text !== 'string') throw new ScriptLineError(`text must be a string (got ${JSON.stringify(text)})`);
  if (encoding !== undefined && encoding !== 'base64') throw new ScriptLineError(`encoding must be "base64" (text holds a binary frame) or absent (got ${JSON.stringify(encoding)})`);
  if (encoding !== undefined && text === undefined) throw new ScriptLineError('encoding "base64" needs text holding the frame\'s bytes in base64');
  const step: ScriptStep = { line, ts, dir, json: json as unknown as ScriptLineJson };
  if (text !== undefined) step.text = text;
  if (encoding === 'base64') step.binary = base64(text as string);
  else if (dir === 'out' && text !== undefined) checkTemplate(text, vars);
  if (close !== undefined) {
    if (dir !== 'out') throw new ScriptLineError('close is for "out" lines: the mock closes the connection');
    step.close = readClose(close);
  }
  if (dir === 'out' && text === undefined && close === undefined) throw new ScriptLineError('an "out" line needs text (the message to send) or close');
  step.waitFor = matcherOf(json, dir);
  if (json.waitFor !== undefined) step.waitForSource = typeof json.waitFor === 'string' ? json.waitFor : JSON.stringify(json.waitFor);
  return step;
}

function matcherOf(json: Record<string, unknown>, dir: 'in' | 'out'): MessageMatcher | undefined {
  const { waitFor, capture } = json;
  if (capture !== undefined && (capture === null || typeof capture !== 'object' || Array.isArray(capture))) {
    throw new ScriptLineError(`capture must map names to JSONPaths, e.g. {"order": "$.order.id"} (got ${JSON.stringify(capture)})`);
  }
  if (waitFor === undefined && capture === undefined && dir === 'out') return undefined;
  try {
    return compileMessageMatcher(waitFor, capture as Record<string, string> | undefined);
  } catch (e) {
    if (e instanceof PatternError) throw new ScriptLineError(`waitFor ${e.message.startsWith('capture') ? `(${e.message})` : e.message}`);
    throw e;
  }
}

function readClose(close: unknown): { code: number; reason: string } {
  if (close === null || typeof close !== 'object' || Array.isArray(close)) throw new ScriptLineError(`close must be {"code": 1000, "reason": "…"} (got ${JSON.stringify(close)})`);
  const { code = 1000, reason = '', ...rest } = close as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new ScriptLineError(`close has the unknown field ${JSON.stringify(extra)} (fields: code, reason)`);
  if (typeof code !== 'number' || !sendableCloseCode(code)) throw new ScriptLineError(`close.code must be 1000 or 3000–4999, the codes an application may send (got ${JSON.stringify(code)})`);
  if (typeof reason !== 'string') throw new ScriptLineError(`close.reason must be a string (got ${JSON.stringify(reason)})`);
  if (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES) throw new ScriptLineError(`close.reason is ${Buffer.byteLength(reason)} bytes; a close frame holds at most ${MAX_CLOSE_REASON_BYTES}`);
  return { code, reason };
}

function base64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new ScriptLineError('text is not base64, as encoding "base64" says');
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** A message that is a JSON document inserts values as JSON string content; other text as it is. */
export const templateEscapeOf = (text: string): TemplateEscape => (/^\s*[{[]/.test(text) ? 'json' : 'none');

function checkTemplate(text: string, vars: readonly string[]): void {
  try {
    parseTemplate(text, templateEscapeOf(text), vars);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw new ScriptLineError(`text: ${e.message}`);
    throw e;
  }
}
