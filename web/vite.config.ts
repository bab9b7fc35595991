import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const edge = process.env.BEACON_EDGE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@beacon/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 900 },
  // `npm run dev --workspace web` with `npm start` running: the APIs come from the edge
  server: {
    port: 5173,
    proxy: {
      '/api': edge,
      '/auth': edge,
      '/app-config.json': edge,
      '/tiles': edge,
      '/socket.io': { target: edge, ws: true },
    },
  },
});
