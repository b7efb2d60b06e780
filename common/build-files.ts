/**
 * The file names a build's manifest.json may list, which `mock build` replaces and removes and
 * `mock serve` verifies: a plain file name (`routes.js`), or a relative path in the `grpc/` subfolder
 * of the typed message code (`grpc/examples/route_guide.ts`). Nothing absolute, no `.` or `..`
 * segment, no backslash: a planted manifest cannot name a file outside the build folder.
 */
export function isBuildFileName(name: string): boolean {
  if (typeof name !== 'string' || name === '' || name.includes('\\') || name.includes('\0')) return false;
  const segments = name.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return false;
  if (segments.length === 1) return true;
  return segments[0] === BUILD_SUBFOLDER && /\.ts$/.test(name);
}

/** The one subfolder a build writes into (the gRPC typed message code). */
export const BUILD_SUBFOLDER = 'grpc';
