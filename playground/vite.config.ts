// The console (docs/playground.md): Preact compiled by Vite into dist/console, served by the service at
// <BASE_PATH>/console/. `base: './'` keeps every asset URL relative, so the page works under any base path.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Module scripts (one per page, loaded when shown) and stylesheets: nothing inline, so the page runs under a strict CSP.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
  server: {
    // `npx vite playground` during development: the API calls go to a service running on PORT (default 3000).
    proxy: Object.fromEntries(['/management', '/messaging'].map((path) => [path, `http://127.0.0.1:${process.env.PORT ?? '3000'}`])),
  },
});
