// The web widget (docs/widget.md): one classic script, `dist/widget/widget.js`, served by the service at
// <BASE_PATH>/widget.js. Its styles are bundled as a string and adopted by its shadow root, so nothing else loads.
// The build prints the script's gzip size and fails when it exceeds the budget (CI runs `npm run build`).
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const GZIP_BUDGET_BYTES = 60 * 1024;

/** Prints each emitted script's raw and gzip size; a script over the budget fails the build. */
function gzipBudget(limit: number): Plugin {
  return {
    name: 'widget-gzip-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const gzip = gzipSync(file.code, { level: 9 }).length;
        const kib = (bytes: number) => (bytes / 1024).toFixed(1);
        console.log(`widget: ${file.fileName} ${kib(Buffer.byteLength(file.code))} KiB, gzip ${kib(gzip)} KiB (budget ${kib(limit)} KiB)`);
        if (gzip > limit) this.error(`${file.fileName} is ${gzip} bytes gzipped, over the ${limit}-byte budget (docs/widget.md)`);
      }
    },
  };
}

export default defineConfig({
  root: here,
  logLevel: 'warn',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [gzipBudget(GZIP_BUDGET_BYTES)],
  build: {
    outDir: fileURLToPath(new URL('../dist/widget', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('src/main.tsx', import.meta.url)),
      formats: ['iife'],
      name: 'AgentWidget',
      fileName: () => 'widget.js',
    },
  },
});
