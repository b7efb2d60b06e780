import { defineConfig } from 'vite';

/**
 * The web dashboard's bundle: fixed file names (no content hashes) so the admin server's allowlist
 * and the committed dist/ stay stable, and `base: './'` so it works under admin.mount_path (the
 * server adds a `<base href>`). `npm run build:dashboard` writes dashboard/dist.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // no inline polyfill script: the page's policy allows scripts from its own files only
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/index.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});
