/** The frameworks `mock dev-setup` writes a client for, and what differs between them. */
export const FRAMEWORKS = ['react', 'vue', 'angular', 'svelte'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export const isFramework = (name: string): name is Framework => (FRAMEWORKS as readonly string[]).includes(name);

/** Angular's injectable services: one of HttpRequest builders, one of httpResource signals (the SDK's functions besides). */
export const ANGULAR_REQUESTS = 'MockApiRequests';
export const ANGULAR_RESOURCES = 'MockApiResources';

/**
 * @hey-api/openapi-ts plugins for a framework: its client, the types and the SDK's functions, with TanStack Query's options and
 * keys (react, vue, svelte) or Angular's services (the SDK's own classes take constructor arguments, which Angular cannot inject).
 */
export function pluginsFor(framework: Framework, baseUrl: string): unknown[] {
  if (framework === 'angular') {
    return [
      { name: '@hey-api/client-angular', baseUrl },
      '@hey-api/typescript',
      '@hey-api/sdk',
      {
        name: '@angular/common',
        httpRequests: { strategy: 'single', containerName: ANGULAR_REQUESTS },
        httpResources: { strategy: 'single', containerName: ANGULAR_RESOURCES },
      },
    ];
  }
  return [{ name: '@hey-api/client-fetch', baseUrl }, '@hey-api/typescript', '@hey-api/sdk', `@tanstack/${framework}-query`];
}

/** The packages the generated code imports, for the hint after writing. */
export function packagesFor(framework: Framework): string[] {
  if (framework === 'angular') return ['@angular/core', '@angular/common', 'rxjs'];
  return [`@tanstack/${framework}-query`];
}

/**
 * The dev-server proxy that sends the API's paths to the mock: Vite's `server.proxy` (react, vue,
 * svelte) or the Angular CLI's proxy.conf.json. With it, the client may use a relative base URL.
 */
export function proxySnippet(framework: Framework, prefixes: readonly string[], target: string): string {
  if (framework === 'angular') {
    const entries = Object.fromEntries(prefixes.map((prefix) => [prefix, { target, secure: false, changeOrigin: true }]));
    return ['proxy.conf.json (ng serve --proxy-config proxy.conf.json, or "proxyConfig" in angular.json):', JSON.stringify(entries, null, 2)].join('\n');
  }
  const lines = prefixes.map((prefix) => `      '${prefix}': { target: '${target}', changeOrigin: true },`);
  return ['vite.config.ts:', 'export default defineConfig({', '  server: {', '    proxy: {', ...lines, '    },', '  },', '});'].join('\n');
}
