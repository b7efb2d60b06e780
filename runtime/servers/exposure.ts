import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { devUsersWarning, type Auth, type AuthOptions } from '../control/auth/index.js';

/** `http://host:port`, IPv6 hosts in brackets. */
export const httpUrl = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

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

const PROTECT = 'turn on admin.auth.enabled (MOCK_ADMIN_AUTH_ENABLED=true) or set MOCK_MANAGEMENT_TOKEN';

/** `management`: the management router under /__mock of the HTTP mock (its runtime mocks, routes and statistics). */
export type ExposedSurface = 'admin' | 'embedded' | 'management' | 'metrics';

/**
 * One warning line when a control surface listens beyond this machine with nothing guarding it;
 * undefined when it is bound to loopback or protected.
 */
export function exposureWarning(surface: ExposedSurface, host: string, url: string, protection: AdminProtection): string | undefined {
  if (isLoopback(host) || protection.authEnabled || protection.managementToken) return undefined;
  switch (surface) {
    case 'admin':
      return `the admin API at ${url} is reachable from other machines without authentication: anyone on the network can change mocks and settings, read request logs and edit project files; bind it to 127.0.0.1 (admin.bind, --admin-host, MOCK_ADMIN_HOST) or ${PROTECT}`;
    case 'embedded':
      return `the admin API embedded at ${url}/__mock is reachable from other machines without authentication: anyone on the network can change mocks and settings, read request logs and edit project files; bind the servers to 127.0.0.1 (server.bind, --host), run the admin on its own loopback port (--admin) or ${PROTECT}`;
    case 'management':
      return `the management router at ${url}/__mock is reachable from other machines without authentication: anyone on the network can create, replace and delete runtime mocks (up to admin.limits.max_mocks) and read the routes, statistics and coverage; bind the server to 127.0.0.1 (server.bind, --host, MOCK_HTTP_HOST) or ${PROTECT}`;
    case 'metrics':
      return `the metrics endpoint at ${url}/metrics is reachable from other machines without authentication: it shows the mocked routes and their traffic; bind it to 127.0.0.1 (metrics.bind, --metrics-host, MOCK_METRICS_HOST) or ${PROTECT}`;
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
