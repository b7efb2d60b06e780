import type { WsBehaviour } from './session.js';

/** Sends every message back as it came (text as text, binary as binary): paths nothing else claims. */
export const echo = (): WsBehaviour => ({
  name: 'echo',
  source: 'echo',
  echoes: true,
  start: () => undefined,
  message: (session, message) => session.send(message),
  stop: () => undefined,
});
