# syntax=docker/dockerfile:1
#
# Beacon: one multi-stage build for every service, the migration job and the web app.
#
#   docker build --target identity -t beacon/identity:1.2.0 .
#
# Targets: identity incidents store alerts gateway dispatcher traffic (the services), migrate (the
# one-shot schema migration, for compose; in Kubernetes each service's image migrates in an initContainer) and edge
# (the built web app plus the single-origin proxy, a slim image of its own; the default).
#
# The server compiles as ONE tree (dist/, shared libs resolved to relative paths by tsc-alias), so every
# runtime image carries the same dist/ and production node_modules layers and differs only in its command,
# port and health check. A registry stores those shared layers once.
#
# infra/check-deploy.mjs checks that every COPY source below exists and is not excluded by .dockerignore,
# and that every workspace's package.json is copied into the manifests stage (npm ci needs all of them).

# Node.js 22 LTS. Pin the base image by digest for a release: no registry is reachable from the deploy check, so the
# digest is not written here but given at build time (docs/deploy.md, "Pinning images"):
#   docker buildx imagetools inspect node:22-bookworm-slim      # prints the index digest, sha256:...
#   docker build --build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:<digest> --target identity ...
# `npm run check:deploy` warns loudly while the default below has no digest.
ARG NODE_IMAGE=node:22-bookworm-slim

# --- package manifests only: the dependency layers below are rebuilt only when one of these changes ---
FROM scratch AS manifests
COPY package.json package-lock.json /
COPY libs/auth/package.json /libs/auth/
COPY libs/common/package.json /libs/common/
COPY libs/contracts/package.json /libs/contracts/
COPY libs/geo/package.json /libs/geo/
COPY libs/testing/package.json /libs/testing/
# The Web Push addon builds at install (its install script), so its sources come with its manifest.
COPY libs/webpush-native /libs/webpush-native/
COPY services/alerts/package.json /services/alerts/
COPY services/gateway/package.json /services/gateway/
COPY services/identity/package.json /services/identity/
COPY services/incidents/package.json /services/incidents/
COPY services/store/package.json /services/store/
COPY services/traffic/package.json /services/traffic/
COPY web/package.json /web/

# --- build: every dependency (compilers, vite), then the server (dist/) and the web app (web/dist/) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# A C toolchain for libs/webpush-native, built against this Node's own headers (no download).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false NPM_CONFIG_NODEDIR=/usr/local
COPY --from=manifests / ./
RUN npm ci && test -f libs/webpush-native/build/Release/webpush_native.node
COPY tsconfig.json tsconfig.build.json ./
COPY libs ./libs
COPY services ./services
COPY infra ./infra
COPY web ./web
RUN npm run build

# --- runtime base: production dependencies only, the compiled server, a non-root user ---
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY --from=manifests / ./
# Native modules (argon2, sharp, msgpackr) ship prebuilt binaries for glibc, so no compiler is needed here.
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /src/dist ./dist
# The addon the build stage compiled (this stage has no compiler: its own install fell back and left no binary).
COPY --from=build /src/libs/webpush-native/build/Release/webpush_native.node ./libs/webpush-native/build/Release/webpush_native.node
# Files stay owned by root: the service can read its code but never rewrite it. The one writable place is
# the incidents service's local uploads directory (a volume in docker-compose.yml takes this ownership).
RUN mkdir -p /app/var/uploads && chown node:node /app/var/uploads
USER node
# Each target sets HEALTH_PORT_ENV to the name of the variable holding its port, so the check follows a
# port changed at run time.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env[process.env.HEALTH_PORT_ENV]+'/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

FROM runtime AS identity
ENV HEALTH_PORT_ENV=IDENTITY_PORT IDENTITY_PORT=3001
EXPOSE 3001
CMD ["node", "--enable-source-maps", "dist/services/identity/src/main.js"]

FROM runtime AS incidents
ENV HEALTH_PORT_ENV=INCIDENTS_PORT INCIDENTS_PORT=3002
EXPOSE 3002
CMD ["node", "--enable-source-maps", "dist/services/incidents/src/main.js"]

FROM runtime AS store
ENV HEALTH_PORT_ENV=STORE_PORT STORE_PORT=3003
EXPOSE 3003
CMD ["node", "--enable-source-maps", "dist/services/store/src/main.js"]

FROM runtime AS alerts
ENV HEALTH_PORT_ENV=ALERTS_PORT ALERTS_PORT=3004
EXPOSE 3004
CMD ["node", "--enable-source-maps", "dist/services/alerts/src/main.js"]

FROM runtime AS gateway
ENV HEALTH_PORT_ENV=GATEWAY_PORT GATEWAY_PORT=3005
EXPOSE 3005
CMD ["node", "--enable-source-maps", "dist/services/gateway/src/main.js"]

FROM runtime AS dispatcher
ENV HEALTH_PORT_ENV=DISPATCHER_PORT DISPATCHER_PORT=3006
EXPOSE 3006
# A larger young generation: the dispatcher allocates per message (payloads, requests, outcomes) and most of it dies
# young; 64 MB semi-spaces cut its garbage collection and about 5-8% of its CPU per delivery (bench/README.md). They are
# that size from the start (--min-semi-space-size), not grown to it under the first alert's load: the first 25,000
# deliveries after a start cost about 7% less CPU. The young generation is three semi-spaces (192 MB):
# k8s/base/dispatcher.yaml leaves room for it under the memory limit.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "--min-semi-space-size=64", "dist/services/alerts/src/dispatcher.main.js"]

FROM runtime AS traffic
ENV HEALTH_PORT_ENV=TRAFFIC_PORT TRAFFIC_PORT=3007
EXPOSE 3007
CMD ["node", "--enable-source-maps", "dist/services/traffic/src/main.js"]

# One-shot: applies every schema's pending migrations and exits (compose runs it before the services,
# Kubernetes as a Job). The seed (demo accounts) is the separate command `node dist/infra/seed.js`.
FROM runtime AS migrate
HEALTHCHECK NONE
CMD ["node", "--enable-source-maps", "dist/infra/migrate.js"]

# --- the edge's files only: the dist/ files dist/infra/edge.js loads and the packages they come from, found by
# running it (start-up, a health check, a page, a proxied request), and the web app without its source maps ---
FROM runtime AS edge-files
USER root
COPY --from=build /src/web/dist ./web/dist
RUN node - <<'EOF'
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const app = fs.realpathSync(process.env.APP_DIR || '/app');
const out = process.env.EDGE_OUT || '/edge';
const webSource = process.env.WEB_DIST_SOURCE || path.join(app, 'web/dist');
const modules = fs.realpathSync(path.join(app, 'node_modules'));
const fail = (message) => {
  console.error(`edge-files: ${message}`);
  process.exit(1);
};
const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

(async () => {
  const list = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'edge-trace-')), 'loaded.json');
  const hook = `${list}.hook.js`;
  fs.writeFileSync(hook, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));`);
  const port = await freePort();
  const edge = spawn(process.execPath, ['-r', hook, path.join(app, 'dist/infra/edge.js')], {
    cwd: app,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', WEB_DIST: webSource, IDENTITY_URL: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => edge.on('exit', resolve));
  const get = async (p) => {
    for (let i = 0; i < 100; i++) {
      try {
        return await fetch(`http://127.0.0.1:${port}${p}`).then((r) => r.status);
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    fail(`the edge did not answer ${p}`);
  };
  const health = await get('/health');
  if (health !== 200) fail(`/health answered ${health}`);
  await get('/');
  await get('/api/identity/health'); // the proxy's error path: nothing listens on port 9
  edge.kill('SIGTERM');
  if ((await exited) !== 0) fail('the edge did not stop cleanly');

  const packages = new Set();
  const files = new Set();
  for (const file of JSON.parse(fs.readFileSync(list, 'utf8'))) {
    if (file.startsWith(`${modules}/`)) {
      const rel = file.slice(modules.length + 1).split('/');
      // the outermost package: a nested node_modules travels with it
      packages.add(rel.slice(0, rel[0].startsWith('@') ? 2 : 1).join('/'));
    } else if (file.startsWith(`${app}/dist/`)) files.add(path.relative(app, file));
    else if (file === hook) continue;
    else fail(`the edge loaded ${file}, outside dist/ and node_modules/`);
  }
  // An ES module's imports (NestJS 12 ships ES modules, which the edge's CommonJS loads with require()) never enter
  // require.cache: an ES module package that was loaded brings the packages it depends on (required peers too), as
  // Node finds them from its folder, and so on for those that are ES modules themselves.
  const packageDir = (file) => {
    const rel = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
    return file.slice(0, file.length - rel.join('/').length) + rel.slice(0, rel[0].startsWith('@') ? 2 : 1).join('/');
  };
  const manifest = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const locate = (name, from) => {
    for (let dir = from; dir.startsWith(modules); dir = path.dirname(dir)) {
      const candidate = path.join(dir, path.basename(dir) === 'node_modules' ? '' : 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const seen = new Set();
  const esm = [...new Set(JSON.parse(fs.readFileSync(list, 'utf8')).filter((f) => f.startsWith(`${modules}/`)).map(packageDir))].filter(
    (dir) => manifest(dir).type === 'module',
  );
  while (esm.length) {
    const dir = esm.pop();
    if (seen.has(dir)) continue;
    seen.add(dir);
    const pkg = manifest(dir);
    const optional = pkg.peerDependenciesMeta ?? {};
    const peers = Object.keys(pkg.peerDependencies ?? {}).filter((name) => !optional[name]?.optional);
    for (const name of [...Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }), ...peers]) {
      const found = locate(name, dir);
      if (!found) continue;
      const rel = found.slice(modules.length + 1).split('/');
      packages.add(rel.slice(0, rel[0].startsWith('@') ? 2 : 1).join('/'));
      if (manifest(found).type === 'module') esm.push(found);
    }
  }
  for (const pkg of packages) fs.cpSync(path.join(modules, pkg), path.join(out, 'node_modules', pkg), { recursive: true, dereference: true });
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
    fs.copyFileSync(path.join(app, rel), path.join(out, rel));
    if (fs.existsSync(path.join(app, `${rel}.map`))) fs.copyFileSync(path.join(app, `${rel}.map`), path.join(out, `${rel}.map`));
  }
  // the browser's code without its source maps, which would publish the sources
  fs.cpSync(webSource, path.join(out, 'web/dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  console.log(`edge-files: ${files.size} files of dist/, ${packages.size} packages`);
})().catch((e) => fail(e.stack));
EOF

# The web app and the single origin (:8080), on the Node.js image alone: the edge's own files and packages, none of
# the services' (no database drivers, image codecs or cloud SDKs). Under Kubernetes the Ingress or the Gateway routes
# the API paths itself and sends the rest here.
FROM ${NODE_IMAGE} AS edge
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    HEALTH_PORT_ENV=PORT PORT=8080 WEB_DIST=web/dist
COPY --from=edge-files /edge/ ./
USER node
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env[process.env.HEALTH_PORT_ENV]+'/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
EXPOSE 8080
CMD ["node", "--enable-source-maps", "dist/infra/edge.js"]
