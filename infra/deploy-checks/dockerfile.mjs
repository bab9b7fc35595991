/** The Dockerfile and .dockerignore: COPY sources, workspace manifests, and one runnable target per process. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { distSourceExists, EDGE_ENTRY, MIGRATE_ENTRY } from './repository.mjs';

/** The Node.js LTS lines the images may run: maintained ones only. */
const SUPPORTED_NODE = [22, 24];

/** Docker's .dockerignore semantics: patterns relative to the context, `**`, `!` exceptions, last match wins. */
function dockerIgnoreMatcher(file) {
  const patterns = [];
  if (existsSync(file)) {
    for (let line of readFileSync(file, 'utf8').split(/\r?\n/)) {
      line = line.trim();
      if (!line || line.startsWith('#')) continue;
      const exclusion = line.startsWith('!');
      let p = (exclusion ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      if (p.startsWith('./')) p = p.slice(2);
      let re = '';
      for (let i = 0; i < p.length; i++) {
        const c = p[i];
        if (c === '*' && p[i + 1] === '*') {
          i++;
          if (p[i + 1] === '/') {
            i++;
            re += '(?:.*/)?';
          } else re += '.*';
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      patterns.push({ exclusion, re: new RegExp(`^${re}$`) });
    }
  }
  return (path) => {
    const parts = path.split('/');
    let excluded = false;
    for (const { exclusion, re } of patterns) {
      if (exclusion !== excluded) continue;
      let hit = false;
      for (let i = parts.length; i > 0 && !hit; i--) hit = re.test(parts.slice(0, i).join('/'));
      if (hit) excluded = !exclusion;
    }
    return excluded;
  };
}

function parseDockerfile(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const instructions = [];
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let text = lines[i];
    if (/^\s*#/.test(text) || !text.trim()) continue;
    while (/\\\s*$/.test(text) && i + 1 < lines.length) {
      text = text.replace(/\\\s*$/, ' ');
      i++;
      if (/^\s*#/.test(lines[i])) {
        text += ' \\';
        continue;
      }
      text += lines[i];
    }
    const m = /^\s*(\w+)\s+([\s\S]*)$/.exec(text);
    if (!m) continue;
    const instruction = { keyword: m[1].toUpperCase(), rest: m[2].trim(), line: startLine, heredocs: [] };
    for (const h of instruction.rest.matchAll(/<<-?(["']?)(\w+)\1/g)) {
      instruction.heredocs.push(h[2]);
      while (i + 1 < lines.length && lines[i + 1].trim() !== h[2]) i++;
      i++;
    }
    instructions.push(instruction);
  }
  return instructions;
}

function splitArgs(rest) {
  if (rest.startsWith('[')) {
    try {
      return JSON.parse(rest);
    } catch {
      /* shell form */
    }
  }
  return rest.split(/\s+/).filter(Boolean);
}

function parseEnv(rest) {
  const out = {};
  if (!rest.includes('=')) {
    const [k, ...v] = rest.split(/\s+/);
    out[k] = v.join(' ');
    return out;
  }
  for (const m of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)) out[m[1]] = m[3] ?? m[4] ?? m[5] ?? '';
  return out;
}

/**
 * The Dockerfile's stages, checking on the way that every COPY/ADD source is in the build context and not
 * excluded by .dockerignore, and that every workspace's package.json is copied.
 */
export function readDockerfile(opts, report, repo) {
  const file = opts.dockerfile;
  if (!existsSync(file)) {
    report.error(file, '', 'missing');
    return { stages: new Map() };
  }
  const ignored = dockerIgnoreMatcher(opts.dockerignore);
  const instructions = parseDockerfile(file);
  const globalArgs = {};
  const stages = new Map();
  const order = [];
  let stage;
  const copied = [];
  for (const ins of instructions) {
    const where = (s) => `line ${ins.line}${s ? ` (stage ${s})` : ''}`;
    if (ins.keyword === 'ARG' && !stage) {
      const [k, v] = ins.rest.split('=');
      globalArgs[k.trim()] = (v ?? '').trim();
      continue;
    }
    if (ins.keyword === 'FROM') {
      const args = ins.rest.split(/\s+/).filter((a) => !a.startsWith('--'));
      const image = args[0].replace(/\$\{?(\w+)\}?/g, (_, k) => globalArgs[k] ?? '');
      const name = /^as$/i.test(args[1] ?? '') ? args[2] : String(order.length);
      stage = {
        name,
        base: image,
        parent: stages.get(image),
        env: {},
        user: undefined,
        healthcheck: undefined,
        cmd: undefined,
        expose: [],
        runs: [],
        copies: [],
        line: ins.line,
      };
      stages.set(name, stage);
      order.push(stage);
      continue;
    }
    if (!stage) continue;
    switch (ins.keyword) {
      case 'ENV':
        Object.assign(stage.env, parseEnv(ins.rest));
        break;
      case 'USER':
        stage.user = ins.rest.split(/\s+/)[0];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = /^NONE\b/i.test(ins.rest) ? 'NONE' : ins.rest;
        break;
      case 'CMD':
      case 'ENTRYPOINT':
        stage.cmd = splitArgs(ins.rest);
        break;
      case 'EXPOSE':
        stage.expose.push(...ins.rest.split(/\s+/).map((p) => Number(p.split('/')[0])));
        break;
      case 'RUN':
        stage.runs.push(ins.rest);
        break;
      case 'COPY':
      case 'ADD': {
        if (ins.heredocs.length) break;
        const args = splitArgs(ins.rest);
        const flags = args.filter((a) => a.startsWith('--'));
        const paths = args.filter((a) => !a.startsWith('--'));
        const from = flags.find((f) => f.startsWith('--from='))?.slice(7);
        const sources = paths.slice(0, -1);
        stage.copies.push({ from, sources, dest: paths.at(-1) });
        if (!sources.length) report.error(file, where(stage.name), `${ins.keyword} needs a source and a destination`);
        if (from) {
          if (!stages.has(from) && /^\d+$/.test(from) && !order[Number(from)])
            report.error(file, where(stage.name), `${ins.keyword} --from=${from}: no such stage`);
          break;
        }
        for (const source of sources) {
          if (/^https?:\/\//.test(source)) continue;
          const rel = source.replace(/^\.\/?/, '').replace(/\/+$/, '');
          copied.push(rel);
          const matches = /[*?[]/.test(rel) ? globMatches(repo.root, rel) : existsSync(join(repo.root, rel)) ? [rel] : [];
          if (!matches.length) report.error(file, where(stage.name), `${ins.keyword} source '${source}' does not exist in the build context (${repo.root})`);
          else if (rel && matches.every((m) => ignored(m)))
            report.error(file, where(stage.name), `${ins.keyword} source '${source}' is excluded by .dockerignore, so the build cannot see it`);
        }
        break;
      }
      default:
        break;
    }
  }
  // base images pinned by digest: a tag can be moved under a release (a warning: the digest is given at build time)
  for (const st of order) {
    if (st.parent || st.base === 'scratch') continue;
    const node = /^(?:docker\.io\/)?(?:library\/)?node:(\d+)/.exec(st.base);
    if (node && !SUPPORTED_NODE.includes(Number(node[1])))
      report.error(
        file,
        `stage ${st.name} (line ${st.line})`,
        `FROM ${st.base}: Node.js ${node[1]} is not a supported LTS line (${SUPPORTED_NODE.join(' or ')}; Node 20 reached its end of life on 2026-04-30)`,
      );
    if (!/@sha256:[0-9a-f]{64}$/.test(st.base))
      report.warn(
        `${report.show(file)}: stage ${st.name} (line ${st.line}) is FROM ${st.base}, not pinned by digest: build with --build-arg NODE_IMAGE=${st.base.split('@')[0]}@sha256:<digest> (docs/deploy.md, "Pinning images")`,
      );
  }
  for (const pkg of repo.workspacePackages) {
    const parts = pkg.split('/');
    const covered = copied.some((c) => c === '' || c === '.' || parts.some((_, i) => parts.slice(0, i + 1).join('/') === c));
    if (!covered) report.error(file, '', `${pkg} is never copied: npm ci fails without every workspace's package.json`);
  }
  return { stages, order, file };
}

/**
 * A COPY source pattern's matches in the build context. Deliberately not built on dockerIgnoreMatcher: the two read
 * `**` and `[...]` differently, and sharing one would change which COPY sources are found.
 */
function globMatches(root, pattern) {
  const re = new RegExp(
    `^${pattern
      .split('/')
      .map((s) =>
        s
          .replace(/[.+^${}()|\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('/')}$`,
  );
  const out = [];
  const walk = (dir, depth) => {
    if (depth > pattern.split('/').length) return;
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'node_modules' || name === '.git') continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (re.test(rel)) out.push(rel);
      if (statSync(join(root, rel)).isDirectory()) walk(rel, depth + 1);
    }
  };
  walk('', 1);
  return out;
}

/** A stage's effective settings, following FROM <stage> chains (ENV merges, RUN accumulates, the rest is inherited). */
function effective(stage, key) {
  const chain = [];
  for (let s = stage; s; s = s.parent) chain.unshift(s);
  if (key === 'env') return Object.assign({}, ...chain.map((s) => s.env));
  if (key === 'runs' || key === 'expose') return chain.flatMap((s) => s[key] ?? []);
  for (const s of chain.reverse()) if (s[key] !== undefined) return s[key];
  return undefined;
}

/** The stage and every stage it is built from: its FROM chain, and the stages its COPY --from instructions read. */
function provenance(stage, stages, seen = new Set()) {
  for (let s = stage; s && !seen.has(s); s = s.parent) {
    seen.add(s);
    for (const c of s.copies) if (c.from && stages.get(c.from)) provenance(stages.get(c.from), stages, seen);
  }
  return [...seen];
}

/** The effective setting of the stage named `target`; a stage that does not exist has none (an empty env). */
export const stageSetting = (stages, target, key) => effective(stages.get(target) ?? {}, key);

/** Whether every service's image sets HOST=0.0.0.0 itself, so that compose and Kubernetes need not. */
export function imageSetsHost(docker, services) {
  return Boolean(docker.file) && services.every((svc) => stageSetting(docker.stages, svc, 'env').HOST === '0.0.0.0');
}

export function checkDockerTargets(report, docker, repo) {
  const { stages, file } = docker;
  if (!file) return;
  const need = [
    ...repo.services.map((svc) => ({ target: svc, entry: repo.entries[svc], port: repo.table[svc]?.port, health: true })),
    { target: 'migrate', entry: MIGRATE_ENTRY, health: false },
    { target: 'edge', entry: EDGE_ENTRY, port: 8080, health: true },
  ];
  for (const { target, entry, port, health } of need) {
    const stage = stages.get(target);
    if (!stage) {
      report.error(file, `target ${target}`, `no stage 'FROM ... AS ${target}' (${target === 'edge' ? 'the web app' : `services/${target}`} needs an image)`);
      continue;
    }
    const where = `target ${target} (line ${stage.line})`;
    const cmd = effective(stage, 'cmd') ?? [];
    if (!cmd.some((a) => String(a).includes(entry))) report.error(file, where, `CMD must run ${entry} (found ${JSON.stringify(cmd)})`);
    else if (!distSourceExists(repo.root, entry)) report.error(file, where, `${entry} has no source file`);
    const user = effective(stage, 'user');
    if (!user || /^(root|0)(:|$)/.test(user)) report.error(file, where, 'runs as root: add USER node (or another non-root user)');
    const hc = effective(stage, 'healthcheck');
    if (health && (!hc || hc === 'NONE')) report.error(file, where, 'has no HEALTHCHECK against /health');
    if (health && hc && hc !== 'NONE' && !hc.includes('/health')) report.error(file, where, 'HEALTHCHECK does not call /health');
    if (port && !effective(stage, 'expose')?.includes(port)) report.error(file, where, `does not EXPOSE ${port}`);
    const built = provenance(stage, stages);
    if (!built.some((s) => s.runs.some((r) => /npm ci\b.*--omit=dev/.test(r))))
      report.error(file, where, 'its runtime must install production dependencies only (npm ci --omit=dev)');
    if (target === 'edge') {
      if (!built.some((s) => s.copies.some((c) => c.sources.some((src) => src.includes('web/dist')))))
        report.error(file, where, 'does not copy the built web app (web/dist)');
      // slim: the edge's image must not be built FROM a stage that installed every service's dependencies
      const chain = [];
      for (let s = stage.parent; s; s = s.parent) chain.push(s);
      const heavy = chain.find((s) => s.runs.some((r) => /npm ci\b/.test(r)));
      if (heavy)
        report.error(
          file,
          where,
          `is built FROM stage ${heavy.name}, which installs every service's dependencies: copy only what the edge loads into an image of its own`,
        );
    }
  }
}
