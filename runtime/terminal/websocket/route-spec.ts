/** websocket.routes[] of mock.yaml as the runtime takes it (file paths absolute). */
export interface WsRouteSpec {
  /** `/chat/{room}`: whole-segment parameters, as runtime mocks write them. */
  path: string;
  /** A replay script (JSON Lines). */
  script?: string;
  echo?: boolean;
  /** Template answers to matching messages. */
  messages?: WsAnswerSpec[];
  /** Messages sent when the connection opens (templates), before any answer. */
  on_open?: Array<string | WsBinarySpec>;
  unmatched?: 'ignore' | 'echo' | 'close';
}

export interface WsBinarySpec {
  text: string;
  encoding: 'base64';
}

export interface WsAnswerSpec {
  /** The message condition (a regex, a JSONPath, or JSONPath conditions); absent: every message. */
  match?: unknown;
  capture?: Record<string, string>;
  /** One message or several, each a template (or base64 bytes with encoding). */
  reply?: string | WsBinarySpec | Array<string | WsBinarySpec>;
  delay_ms?: number;
  close?: { code?: number; reason?: string };
}
