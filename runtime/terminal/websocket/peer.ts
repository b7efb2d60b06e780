import type { WsMessage } from '../../../common/websocket/index.js';

/**
 * One WebSocket connection as an adapter (uWebSockets.js or the `ws` package) gives it to a
 * session: the only calls a session makes on the wire.
 */
export interface WsPeer {
  send(message: WsMessage): void;
  /** Sends bytes as a text (`binary` false) or binary frame: an echo sends back what came, undecoded. */
  sendFrame(data: Uint8Array, binary: boolean): void;
  /** Bytes written and not yet taken by the client's socket. */
  readonly buffered: number;
  /** A close frame with the code and reason; the adapter reports the close when it is done. */
  close(code: number, reason: string): void;
  /** A ping frame (the heartbeat). */
  ping(): void;
  /** Drops the connection without a close frame (a dead peer). */
  terminate(): void;
  /** Calls back once when `buffered` falls below `bytes`. */
  whenDrained(bytes: number, callback: () => void): void;
}

/** The upgrade request a session was opened by. */
export interface WsHandshake {
  /** Path without the query string, as received. */
  path: string;
  rawQuery: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The client's address, readable (`127.0.0.1`, `::1`). */
  client: string;
}
