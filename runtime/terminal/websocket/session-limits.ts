/** websocket.* settings a session obeys. */
export interface WsSessionLimits {
  /** websocket.message_timeout: longest a script waits for a client message. */
  messageTimeoutMs: number;
  /** Bytes a session lets wait for a slow reader: scripts pause above it, answers close the connection (1008). */
  maxBufferedBytes: number;
}
