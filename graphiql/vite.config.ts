import { defineConfig } from 'vite';

/**
 * GraphiQL for the GraphQL mock, bundled so the page loads nothing from elsewhere: fixed file
 * names (the server serves exactly the files it read at start), `base: './'` so the assets
 * resolve under any graphql.path. `npm run build:graphiql` writes graphiql/dist.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  logLevel: 'warn',
  define: { 'process.env.NODE_ENV': '"production"' },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // no inline polyfill script: the page's policy allows scripts from its own files only
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // Radix's "use client" directives mean nothing in a page bundle
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
      output: {
        entryFileNames: 'assets/graphiql.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});
