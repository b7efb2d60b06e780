/**
 * The terminal around the dashboard: the alternate screen (the shell's screen comes back as it was
 * on exit), the cursor hidden meanwhile, and restored however the process ends: q, SIGINT,
 * SIGTERM, SIGHUP, an uncaught error. Ink 5 has no alternate-screen option, so the escape codes
 * are written here.
 */
export const ENTER_ALT_SCREEN = '\x1b[?1049h';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
const CLEAR = '\x1b[2J\x1b[H';
const SHOW_CURSOR = '\x1b[?25h';

export interface Screen {
  /** Clears the screen (before a redraw after a resize). */
  clear(): void;
  /** Leaves the alternate screen and shows the cursor; safe to call more than once. */
  restore(): void;
}

export function takeScreen(stdout: NodeJS.WriteStream, onSignal: (signal: NodeJS.Signals) => void): Screen {
  let restored = false;
  stdout.write(ENTER_ALT_SCREEN + CLEAR);
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const signal of SIGNALS) process.off(signal, handlers[signal]);
    process.off('exit', restore);
    stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const handlers = Object.fromEntries(SIGNALS.map((signal) => [signal, () => onSignal(signal)])) as Record<(typeof SIGNALS)[number], () => void>;
  for (const signal of SIGNALS) process.on(signal, handlers[signal]);
  process.on('exit', restore);
  return { clear: () => !restored && stdout.write(CLEAR), restore };
}
