import { PatternError, compileCapturing, compileJsonPath, compileJsonPathConditions, firstValue, jsonPathHolds, type JsonPath } from '../patterns/index.js';
import { messageJson, messageText, type WsMessage } from './message.js';

/**
 * What a client message must be to release a script's `waitFor` or to select a route's answer,
 * in the one condition dialect:
 *
 * - a string starting with `$`: a JSONPath (RFC 9535) that must select something in the message
 *   parsed as JSON (`$.type`, `$[?@.type == 'subscribe']`);
 * - any other string: a regex (RE2 syntax, linear time) matching any part of the text; its named
 *   groups `(?<name>…)` are captured;
 * - an object: JSONPaths to conditions, all of which must hold (`{"$.type": "subscribe",
 *   "$.id": {"matches": "^[0-9]+$"}}`).
 *
 * `capture` names JSONPaths whose first value, in a JSON message, is captured under that name.
 * A binary frame is tested as its base64 text and is never JSON.
 */
export interface MessageMatcher {
  /** Names this matcher captures (regex groups and `capture` keys). */
  readonly names: readonly string[];
  /** The captured values when the message matches, else undefined. */
  test(message: WsMessage): Record<string, string> | undefined;
}

export const CAPTURE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Throws PatternError in words that fit after "waitFor: ". `waitFor` undefined matches every message. */
export function compileMessageMatcher(waitFor: unknown, capture: Readonly<Record<string, string>> = {}): MessageMatcher {
  const captures = compileCaptures(capture);
  const own = ownTest(waitFor);
  const names = [...own.names, ...captures.map(([name]) => name)];
  if (captures.length === 0) return { names, test: own.test };
  return {
    names,
    test(message) {
      const groups = own.test(message);
      if (groups === undefined) return undefined;
      const json = messageJson(message);
      for (const [name, path] of captures) {
        const value = firstValue(path, json);
        groups[name] = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
      }
      return groups;
    },
  };
}

function ownTest(waitFor: unknown): Pick<MessageMatcher, 'names' | 'test'> {
  if (waitFor === undefined) return { names: [], test: () => ({}) };
  if (typeof waitFor === 'string') {
    if (waitFor.startsWith('$')) {
      const path = jsonPath(waitFor);
      return { names: [], test: (message) => (selects(path, messageJson(message)) ? {} : undefined) };
    }
    const pattern = compileCapturing(waitFor);
    return { names: pattern.names, test: (message) => pattern.exec(messageText(message)) };
  }
  if (waitFor !== null && typeof waitFor === 'object' && !Array.isArray(waitFor)) {
    const conditions = compileJsonPathConditions(waitFor, 'exact', 'waitFor');
    return {
      names: [],
      test(message) {
        const json = messageJson(message);
        return conditions.every((condition) => jsonPathHolds(condition, json)) ? {} : undefined;
      },
    };
  }
  throw new PatternError(`must be a regex, a JSONPath starting with $, or an object of JSONPath conditions (got ${JSON.stringify(waitFor)})`);
}

function jsonPath(source: string): JsonPath {
  try {
    return compileJsonPath(source);
  } catch (e) {
    if (e instanceof PatternError) throw new PatternError(`the JSONPath ${e.message}`);
    throw e;
  }
}

function selects(path: JsonPath, json: unknown): boolean {
  if (json === undefined) return false;
  return firstValue(path, json) !== undefined;
}

function compileCaptures(capture: Readonly<Record<string, string>>): Array<[string, JsonPath]> {
  return Object.entries(capture).map(([name, source]) => {
    if (!CAPTURE_NAME.test(name)) throw new PatternError(`capture name ${JSON.stringify(name)} must be letters, digits and _ (not starting with a digit)`);
    if (typeof source !== 'string' || !source.startsWith('$')) throw new PatternError(`capture.${name} must be a JSONPath starting with $ (got ${JSON.stringify(source)})`);
    return [name, jsonPath(source)];
  });
}
