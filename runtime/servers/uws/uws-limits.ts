/**
 * uWebSockets.js reads its request-head limit from the environment once, when the addon loads:
 * 4 KiB by default, below what real clients send (long query strings, large cookies). 16 KiB is
 * node:http's default, so both adapters accept the same requests; UWS_HTTP_MAX_HEADERS_SIZE set
 * by the user wins. Imported by uws.ts before the addon.
 */
process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= String(16 * 1024);
