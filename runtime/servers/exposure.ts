import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { devUsersWarning, type Auth, type AuthOptions } from '../control/auth/index.js';

/** `http://host:port`, IPv6 hosts in brackets. */
export const httpUrl = (host: string, port: number, secure = false): string => `${secure ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Only this machine can connect: 127.0.0.0/8, ::1 (also IPv4-mapped), localhost. */
export function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const mapped = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  if (isIP(mapped) === 4) return mapped.startsWith('127.');
  return isIP(name) === 6 && /^(0{0,4}:){2,7}0{0,3}1$/.test(name);
}

/** What protects the admin API from other machines: JWT login or the hosted-mode management token. */
export interface AdminProtection {
  authEnabled: boolean;
  managementToken: boolean;
}

/** Where every way to close or guard a control surface is written (auth, the management token, each bind setting). */
const SEE = 'docs/admin.md#reachable-from-other-machines';

/** `management`: the management router under /__mock of the HTTP mock (its runtime mocks, routes and statistics). */
export type ExposedSurface = 'admin' | 'embedded' | 'management' | 'metrics';

/**
 * One short warning line when a control surface listens beyond this machine with nothing guarding
 * it (what, the simplest fix, where the others are written); undefined when it is bound to
 * loopback or protected. It comes before the addresses mock serve prints, so it stays short.
 */
export function exposureWarning(surface: ExposedSurface, host: string, url: string, protection: AdminProtection): string | undefined {
  if (isLoopback(host) || protection.authEnabled || protection.managementToken) return undefined;
  switch (surface) {
    case 'admin':
      return `the admin API at ${url} is reachable from other machines: --admin-host 127.0.0.1 keeps it local (${SEE})`;
    case 'embedded':
      return `the admin API embedded at ${url}/__mock is reachable from other machines: --host 127.0.0.1 keeps it local (${SEE})`;
    case 'management':
      return `the management router at ${url}/__mock is reachable from other machines: --host 127.0.0.1 keeps it local (${SEE})`;
    case 'metrics':
      return `the metrics endpoint at ${url}/metrics is reachable from other machines: --metrics-host 127.0.0.1 keeps it local (${SEE})`;
  }
}

/** Logs exposureWarning's line, if any. */
export function warnIfExposed(options: { logger: Logger; auth: AuthOptions }, surface: ExposedSurface, host: string, url: string): void {
  const warning = exposureWarning(surface, host, url, { authEnabled: options.auth.enabled, managementToken: options.auth.managementToken !== undefined });
  if (warning !== undefined) options.logger.warn(warning);
}

/** Once the admin API listens, so the warning says where anyone could log in with the development passwords. */
export function warnOfDevUsers(options: { logger: Logger }, auth: Auth, adminUrl: string): void {
  if (auth.seededDevUsers.length > 0) options.logger.warn(devUsersWarning(auth.seededDevUsers, adminUrl));
}
