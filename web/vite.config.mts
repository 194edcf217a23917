import { defineConfig } from 'vite';

/**
 * The web app, bundled into dist/web by `npm run build`: the page and its content-addressed files,
 * which the service serves at `/` and `/app/assets/` (src/http/web-app.ts). Nothing comes from a
 * CDN. The dashboard (with the chart library) is a chunk of its own, loaded when it is opened.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  // The app's text and code only; no public/ folder.
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // No inline script or style: the page's Content-Security-Policy allows files of the service only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
