import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import formatjs from '@formatjs/vite-plugin';
import { parse } from '@formatjs/icu-messageformat-parser';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chunkBoundaries, SIDE_EFFECT_FREE } from './chunk-boundaries.ts';

const edge = process.env.BEACON_EDGE_URL ?? 'http://127.0.0.1:8080';

/** What the edge may send compressed (infra/edge.ts serves the .br or .gz beside the file); images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file of the build, once,
 * so the edge never compresses per request. Source maps are left alone: the edge does not serve them.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'beacon-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of files(outDir)) {
        if (!COMPRESSIBLE.test(path)) continue;
        const body = readFileSync(path);
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * The translated catalogues (web/src/i18n/catalogues/<area>/<language>.json) parsed at build time, like the code's
 * own English (formatjs with `ast`): the browser receives ready message trees and never loads the ICU parser, which
 * keeps the landing entry within its budget (issue #41). Still JSON, so Vite's own JSON handling makes the module.
 */
function precompiledCatalogues(): Plugin {
  const CATALOGUE = /[\\/]i18n[\\/]catalogues[\\/](?:[a-z]+[\\/])?[a-z]{2}\.json$/;
  return {
    name: 'beacon-precompiled-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOGUE.test(id)) return null;
      const messages: Record<string, string> = JSON.parse(code);
      return { code: JSON.stringify(Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, parse(v)]))), map: null };
    },
  };
}

export default defineConfig(({ command }) => ({
  // A build keeps no English in the code: English is a catalogue like the others (en.json, written by
  // `npm run i18n:extract` and checked by lint), loaded beside app-config.json, so the landing entry carries message ids
  // only. The dev server keeps each message's English in the code too, so a message added since the last extract shows.
  plugins: [formatjs({ ast: true, removeDefaultMessage: command === 'build' }), precompiledCatalogues(), react(), chunkBoundaries(), precompress()],
  resolve: {
    alias: [
      // every message reaches the browser parsed (above): the parser's runtime-free half is enough
      { find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' },
      { find: '@beacon/contracts', replacement: fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)) },
      { find: /^@\//, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/` },
    ],
  },
  // 'hidden': maps are written for whoever debugs a build, but no bundle points at them and the edge never serves them
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 600,
    // the SMS counter's CommonJS packages have no side effects: they go where they are used, the admin console (issue #35)
    rolldownOptions: { treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id.replace(/\\/g, '/')) } },
  },
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
}));
