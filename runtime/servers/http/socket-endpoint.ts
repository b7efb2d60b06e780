import type { Answer } from '../../chain/exchange/index.js';

/** The connection a socket endpoint talks to, whatever the library. */
export interface EndpointSocket {
  /** The subprotocol agreed in the handshake. */
  readonly protocol: string;
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Bytes sent but not yet taken by the client (so a stream can drop a reader that fell behind). */
  buffered(): number;
  /** Cuts the connection at once, without a closing handshake (a reader that fell behind would never answer one). */
  drop(): void;
}

/** What an endpoint does with an open connection. */
export interface EndpointConnection {
  message(text: string): void;
  closed(code: number, reason: string): void;
}

/**
 * A WebSocket endpoint an HTTP server hosts at one path, beside its HTTP answers there (GraphQL
 * subscriptions over graphql-transport-ws on the GraphQL path). Both HTTP adapters mount it.
 */
export interface SocketEndpoint {
  readonly path: string;
  /** Largest message accepted; a larger one closes the connection with 1009. */
  readonly maxMessageBytes: number;
  /**
   * uWS only: bytes a connection may leave unread before uWS drops further sends without a word
   * (its maxBackpressure, 64 KB when absent). An endpoint that cuts slow readers off itself
   * (checking buffered()) sets it above its own limit plus its largest message.
   */
  readonly maxBackpressure?: number;
  /** The subprotocol to agree on, from Sec-WebSocket-Protocol; or the answer refusing the upgrade. */
  accept(headers: Record<string, string>): { protocol: string } | { refuse: Omit<Answer, 'source'> };
  /** `client`: the peer's address. */
  open(socket: EndpointSocket, headers: Record<string, string>, client: string): EndpointConnection;
}
