/**
 * Whether a run prints stack traces: `--debug`, or MOCK_LOG_LEVEL=debug|trace. Read from argv and
 * the environment directly: a failure may come before flags and config are parsed, and bin/run.js
 * asks before any command loads (to turn on the bundle's source maps).
 */
export const debugging = (argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): boolean =>
  argv.includes('--debug') || /^(debug|trace)$/i.test(env.MOCK_LOG_LEVEL?.trim() ?? '');
