/**
 * Resolves with the first SIGINT or SIGTERM; a second one during shutdown ends the process at once.
 * The listeners stay (not `once`): write-file-atomic's signal-exit, hooked while a save is in
 * flight, re-raises a signal no other listener is left to handle, which would kill the process
 * before it saved what it holds.
 */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (received) process.exit(signal === 'SIGINT' ? 130 : 143);
      received = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
