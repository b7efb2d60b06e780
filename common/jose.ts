type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

/**
 * jose, imported on first use and then held: a server that signs and verifies no token never
 * loads it, and one that verifies a token on every request does not resolve the import each time.
 */
export function loadJose(): Promise<Jose> {
  return (loading ??= import('jose'));
}
