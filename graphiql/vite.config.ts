import { mergeConfig } from 'vite';
import dashboard from '../dashboard/vite.config.ts';

/**
 * GraphiQL for the GraphQL mock, bundled as the web dashboard is (fixed file names, `base: './'`
 * so the assets resolve under any graphql.path, no inline script): the page loads nothing from
 * elsewhere. React instead of Preact. `npm run build:graphiql` writes graphiql/dist.
 */
export default mergeConfig(dashboard, {
  root: import.meta.dirname,
  define: { 'process.env.NODE_ENV': '"production"' },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // Radix's "use client" directives mean nothing in a page bundle
      onLog(level: string, log: { code?: string }, handler: (level: string, log: unknown) => void) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
      output: { entryFileNames: 'assets/graphiql.js' },
    },
  },
});
