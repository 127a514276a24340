import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

/**
 * The renderer. Built into dist/renderer with relative URLs (base './') so the
 * same build loads from Electron's file:// and from the web shell. The strict
 * CSP meta tag is added to the build only (the dev server needs inline HMR code;
 * in dev, Electron sets its own CSP header).
 */
export default defineConfig({
  root,
  base: './',
  plugins: [
    react(),
    {
      name: 'lorecraft-csp',
      apply: 'build',
      transformIndexHtml: () => [{
        tag: 'meta',
        attrs: {
          'http-equiv': 'Content-Security-Policy',
          content: "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: lorecraft-asset:; "
            + "connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; form-action 'none'",
        },
        injectTo: 'head-prepend',
      }],
    },
  ],
  // the canvas's layout worker (renderer/features/canvas/layout.worker.ts) is a module worker
  worker: { format: 'es' },
  build: { outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, strictPort: true, host: '127.0.0.1' },
});
