import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is built once and served by both shells: the web server
// (main/server) and Electron's app:// protocol (main/electron).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:7379', ws: true } },
  },
});
