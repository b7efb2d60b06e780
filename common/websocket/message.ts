/** A WebSocket message as the mock sees it: text, or the bytes of a binary frame. */
export type WsMessage = string | Uint8Array;

/** The message as text for patterns and templates: a binary frame as its base64. */
export const messageText = (message: WsMessage): string => (typeof message === 'string' ? message : Buffer.from(message).toString('base64'));

/** The message parsed as JSON, or undefined when it is binary or not JSON. */
export function messageJson(message: WsMessage): unknown {
  if (typeof message !== 'string') return undefined;
  const first = message.trimStart()[0];
  // only documents can be tested by JSONPath; a bare "hello" is text
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(message) as unknown;
  } catch {
    return undefined;
  }
}

export const messageBytes = (message: WsMessage): number => (typeof message === 'string' ? Buffer.byteLength(message) : message.byteLength);
