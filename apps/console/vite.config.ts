import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Static files served by the account service at /console/ under a strict Content-Security-Policy:
// no inline script or style, nothing from another origin (no CDN, no web font, no tile server).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, assetsInlineLimit: 0, modulePreload: { polyfill: false } },
});
