import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The deployment checker (infra/check-deploy.mjs) against the repository, which must pass, and against
 * small broken copies of it, which must fail naming the file, the object and the fault. It runs as a
 * child process because kubernetes-models is ESM-only (and that is how CI runs it).
 */
const ROOT = join(__dirname, '..');
const CHECKER = join(ROOT, 'infra', 'check-deploy.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** At most two checkers at a time: each builds every kustomization with kubectl, and the machine is shared. */
let running = 0;
const queue: (() => void)[] = [];
async function runChecker(args: string[]): Promise<Run> {
  if (running >= 2) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  try {
    return await new Promise((resolve) => {
      execFile(process.execPath, [CHECKER, ...args], { cwd: ROOT, maxBuffer: 10 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  } finally {
    running--;
    queue.shift()?.();
  }
}

/** The lines of stderr that are not warnings. */
const problems = (run: Run) => run.stderr.split('\n').filter((l) => l && !l.startsWith('check:deploy: WARNING '));

let work: string;

/** A copy of one repository file or folder with one edit; fails loudly if the edit no longer applies. */
function variant(source: string, name: string, edit: (text: string) => string, file?: string): string {
  return variants(source, name, file ? { [file]: edit } : { '': edit });
}

/** A copy of one repository folder with an edit to each of several of its files. */
function variants(source: string, name: string, edits: Record<string, (text: string) => string>): string {
  const target = join(work, name);
  cpSync(join(ROOT, source), target, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = file ? join(target, file) : target;
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`fixture ${name}: the edit did not change ${source}${file ? `/${file}` : ''}`);
    writeFileSync(path, after);
  }
  return target;
}

const runs: Record<string, Promise<Run>> = {};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'beacon-deploy-check-'));
  const k8s = (name: string, file: string, edit: (t: string) => string) => ['--k8s', variant('k8s', name, edit, file)];
  const fixtures: Record<string, string[]> = {
    repo: [],
    wrongType: k8s('k8s-wrong-type', 'base/identity.yaml', (t) => t.replace(/^  revisionHistoryLimit: 5$/m, '  revisionHistoryLimit: five')),
    typo: k8s('k8s-typo', 'base/store.yaml', (t) => t.replace('readinessProbe:', 'readinesProbe:')),
    literalSecret: k8s('k8s-secret', 'base/kustomization.yaml', (t) => {
      writeFileSync(
        join(work, 'k8s-secret', 'base', 'leak.yaml'),
        [
          'apiVersion: v1',
          'kind: Secret',
          'metadata:',
          '  name: beacon-secrets',
          '  namespace: beacon',
          'stringData:',
          '  DATABASE_URL: postgres://beacon:hunter2@db:5432/beacon',
          '',
        ].join('\n'),
      );
      return t.replace('  - namespace.yaml\n', '  - namespace.yaml\n  - leak.yaml\n');
    }),
    literalEnv: k8s('k8s-literal-env', 'base/alerts.yaml', (t) =>
      t.replace(
        /- name: DATABASE_URL\n(\s+)valueFrom:\n\s+secretKeyRef:\n\s+name: beacon-secrets\n\s+key: DATABASE_URL\n/,
        (_m, indent: string) => `- name: DATABASE_URL\n${indent}value: postgres://beacon:hunter2@db:5432/beacon\n`,
      ),
    ),
    kedaQueue: k8s('k8s-keda-queue', 'components/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/listName: (\S+):channel-push:wait/, 'listName: $1:channel-pusj:wait'),
    ),
    kedaPrefix: k8s('k8s-keda-prefix', 'components/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/listName: \S+:(channel-sms):wait/, 'listName: beacon:$1:wait'),
    ),
    kedaSchema: k8s('k8s-keda-schema', 'components/keda/dispatcher-scaledobject.yaml', (t) => t.replace(/minReplicaCount: (\d+)/, 'minReplicaCount: "$1"')),
    kedaNoCpu: k8s('k8s-keda-no-cpu', 'components/keda/dispatcher-scaledobject.yaml', (t) => t.replace(/\n    - type: cpu\n[\s\S]*$/, '\n')),
    kedaCpuMetricType: k8s('k8s-keda-cpu-value', 'components/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/(- type: cpu\n\s+name: cpu\n\s+)metricType: Utilization/, '$1metricType: Value'),
    ),
    kedaFallbackWithCpu: k8s('k8s-keda-fallback', 'components/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/\n  minReplicaCount: (\d+)\n/, '\n  minReplicaCount: $1\n  fallback:\n    failureThreshold: 3\n    replicas: 4\n'),
    ),
    overlayInBase: k8s('k8s-overlay-in-base', 'overlays/hpa/kustomization.yaml', (t) => t.replace('../../routing/ingress-nginx', '../..')),
    // the Sentinel and Cluster components patch the keda triggers by position, checking each one's name first
    kedaTriggerRenamed: k8s('k8s-keda-trigger-renamed', 'components/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace('name: channel-sms\n', 'name: channel-text\n'),
    ),
    clusterPlainPrefix: k8s('k8s-cluster-prefix', 'components/keda-redis-cluster/kustomization.yaml', (t) =>
      t.replace('"{beacon}:bull:channel-sms:wait"', '"beacon:bull:channel-sms:wait"'),
    ),
    sentinelUndocumentedKey: k8s('k8s-sentinel-key', 'components/keda-redis-sentinel/kustomization.yaml', (t) =>
      t.replace('key: REDIS_SENTINEL_MASTER', 'key: REDIS_SENTINEL_PRIMARY'),
    ),
    hpaNoCpu: k8s('k8s-hpa-no-cpu', 'components/dispatcher-hpa/dispatcher-hpa.yaml', (t) => t.replace(/name: cpu\n/, 'name: memory\n')),
    ingress: k8s('k8s-ingress', 'routing/ingress-nginx/ingress.yaml', (t) =>
      t.replace(/(- path: \/api\/store\n\s+pathType: Prefix\n\s+backend:\n\s+service:\n\s+name: )store/, '$1incidents'),
    ),
    grace: k8s('k8s-grace', 'base/dispatcher.yaml', (t) => t.replace(/terminationGracePeriodSeconds: \d+/, 'terminationGracePeriodSeconds: 30')),
    missingDeployment: k8s('k8s-no-gateway', 'base/kustomization.yaml', (t) => {
      rmSync(join(work, 'k8s-no-gateway', 'base', 'gateway.yaml'));
      return t.replace('  - gateway.yaml\n', '');
    }),
    networkPolicies: [
      '--k8s',
      variants('k8s', 'k8s-netpol', {
        // the dispatcher loses PostgreSQL, the ingress controller loses traffic, the default deny goes, and a policy
        // opens every pod to every other
        'base/networkpolicies.yaml': (t) =>
          t
            .replace('values: [identity, incidents, store, alerts, traffic, dispatcher]', 'values: [identity, incidents, store, alerts, traffic]')
            .replace(/apiVersion: networking.k8s.io\/v1\nkind: NetworkPolicy\nmetadata:\n  name: beacon-default-deny\n[\s\S]*?\n---\n/, '')
            .concat(
              '---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: too-open\n  namespace: beacon\nspec:\n  podSelector: {}\n  policyTypes: [Ingress, Egress]\n  ingress: [{ from: [{ podSelector: {} }] }]\n  egress: [{ to: [{ podSelector: {} }] }]\n',
            ),
        'routing/ingress-nginx/networkpolicy.yaml': (t) =>
          t.replace(
            'values: [web, identity, incidents, store, alerts, traffic, gateway]',
            'values: [web, identity, incidents, store, alerts, gateway, dispatcher]',
          ),
      }),
    ],
    gatewayApi: k8s('k8s-gateway-api', 'routing/gateway-api/gateway.yaml', (t) => t.replace('sessionPersistence:', 'sessionPersistance:')),
    autoscaling: [
      '--k8s',
      variants('k8s', 'k8s-autoscaling', {
        'components/api-autoscaling/hpa.yaml': (t) =>
          t.replace(/\n---\napiVersion: autoscaling\/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: gateway\n[\s\S]*$/, '\n'),
        'base/identity.yaml': (t) => t.replace(/^  revisionHistoryLimit: 5$/m, '  replicas: 2\n  revisionHistoryLimit: 5'),
      }),
    ],
    kedaRendered: k8s('k8s-keda-rendered', 'overlays/keda/kustomization.yaml', (t) =>
      t.concat(
        'patches:\n  - target:\n      kind: ScaledObject\n      name: dispatcher\n    patch: |-\n      - op: replace\n        path: /spec/minReplicaCount\n        value: "2"\n',
      ),
    ),
    hostTwice: k8s('k8s-host', 'routing/ingress-nginx/kustomization.yaml', (t) => t.replace(/\nreplacements:[\s\S]*$/, '\n')),
    pinned: k8s('k8s-pinned', 'base/kustomization.yaml', (t) => t.replace(/newTag: "1\.2\.0"/g, `newTag: "1.2.0"\n    digest: sha256:${'ab'.repeat(32)}`)),
    // the PodMonitor leaves the dispatcher (component worker) out and takes the web app (component web), with an interval off its schema
    podMonitorSelection: k8s('k8s-podmonitor-selection', 'components/prometheus/podmonitor.yaml', (t) =>
      t.replace(/operator: NotIn\n(\s+)values: \[web\]/, 'operator: NotIn\n$1values: [worker]').replace(/interval: 30s/, 'interval: 30 seconds'),
    ),
    // the PodMonitor scrapes identity's port only, at another path; the keda overlay has none; nothing admits Prometheus
    podMonitorPort: [
      '--k8s',
      variants('k8s', 'k8s-podmonitor-port', {
        'components/prometheus/podmonitor.yaml': (t) => t.replace(/- port: http\n(\s+)path: \/metrics\n/, '- portNumber: 3001\n$1path: /stats\n'),
        'overlays/keda/kustomization.yaml': (t) => t.replace('  - ../../components/prometheus\n', ''),
        'base/networkpolicies.yaml': (t) => t.replace(/---\n# Prometheus \(namespace monitoring\)[\s\S]*?port: http\n/, ''),
      }),
    ],
    // beacon-config back to a plain ConfigMap: the settings of config.env in config.yaml, no configMapGenerator
    configPlain: k8s('k8s-config-plain', 'base/kustomization.yaml', (t) => {
      const base = join(work, 'k8s-config-plain', 'base');
      const data = readFileSync(join(base, 'config.env'), 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => `  ${l.slice(0, l.indexOf('='))}: ${JSON.stringify(l.slice(l.indexOf('=') + 1))}`);
      writeFileSync(
        join(base, 'config.yaml'),
        ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: beacon-config', '  namespace: beacon', 'data:', ...data, ''].join('\n'),
      );
      rmSync(join(base, 'config.env'));
      return t.replace('  - namespace.yaml\n', '  - namespace.yaml\n  - config.yaml\n').replace(/\nconfigMapGenerator:\n[\s\S]*$/, '\n');
    }),
    // beacon-config generated without the hash, an env line without a value, and an overlay pointing identity elsewhere
    configNoHash: [
      '--k8s',
      variants('k8s', 'k8s-config-no-hash', {
        'base/kustomization.yaml': (t) => t.replace(/( {4}options:\n)/, '$1      disableNameSuffixHash: true\n'),
        'base/config.env': (t) => t.replace('LOG_LEVEL=info\n', 'LOG_LEVEL=info\nLOG_FORMAT\n'),
        'overlays/keda/kustomization.yaml': (t) =>
          t.concat(
            'patches:\n  - target:\n      kind: Deployment\n      name: identity\n    patch: |-\n      - op: replace\n        path: /spec/template/spec/containers/0/envFrom/0/configMapRef/name\n        value: beacon-settings\n',
          ),
      }),
    ],
    // identity loses its zone spread, gateway's turns DoNotSchedule, web's node spread selects nothing, store's PDB loses its policy
    availability: [
      '--k8s',
      variants('k8s', 'k8s-availability', {
        'base/identity.yaml': (t) =>
          t.replace(/ {8}- maxSkew: 1\n {10}topologyKey: topology\.kubernetes\.io\/zone\n[\s\S]*?app\.kubernetes\.io\/name: identity\n/, ''),
        'base/gateway.yaml': (t) => t.replace(/(topologyKey: topology\.kubernetes\.io\/zone\n\s+whenUnsatisfiable: )ScheduleAnyway/, '$1DoNotSchedule'),
        'base/web.yaml': (t) =>
          t.replace(
            /(topologyKey: kubernetes\.io\/hostname\n\s+whenUnsatisfiable: ScheduleAnyway\n\s+labelSelector:\n\s+matchLabels:\n\s+app\.kubernetes\.io\/name: )web\n/,
            '$1webapp\n',
          ),
        'base/store.yaml': (t) => t.replace(/\n\s+unhealthyPodEvictionPolicy: AlwaysAllow\n/, '\n'),
      }),
    ],
    composeUnknownKey: ['--compose', variant('docker-compose.yml', 'compose-unknown.yml', (t) => t.replace(/^  redis:\n/m, '  redis:\n    colour: red\n'))],
    composeNoMigrateOrder: [
      '--compose',
      variant('docker-compose.yml', 'compose-order.yml', (t) =>
        t.replace(/^(x-service:[\s\S]*?)condition: service_completed_successfully/m, '$1condition: service_started'),
      ),
    ],
    dockerMissingPath: [
      '--dockerfile',
      variant('Dockerfile', 'Dockerfile.missing', (t) => t.replace(/^COPY infra \.\/infra$/m, 'COPY infra ./infra\nCOPY does-not-exist ./does-not-exist')),
    ],
    dockerIgnoredPath: [
      '--dockerfile',
      variant('Dockerfile', 'Dockerfile.ignored', (t) => t.replace(/^COPY infra \.\/infra$/m, 'COPY infra ./infra\nCOPY e2e ./e2e')),
    ],
    dockerRoot: ['--dockerfile', variant('Dockerfile', 'Dockerfile.root', (t) => t.replace(/^USER node$/m, 'USER root'))],
    dockerFatEdge: ['--dockerfile', variant('Dockerfile', 'Dockerfile.fat-edge', (t) => t.replace(/^FROM \$\{NODE_IMAGE\} AS edge$/m, 'FROM runtime AS edge'))],
    dockerNode20: [
      '--dockerfile',
      variant('Dockerfile', 'Dockerfile.node20', (t) => t.replace(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m, 'ARG NODE_IMAGE=node:20-bookworm-slim')),
    ],
    dockerPinned: [
      '--dockerfile',
      variant('Dockerfile', 'Dockerfile.pinned', (t) =>
        t.replace(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m, `ARG NODE_IMAGE=node:22-bookworm-slim@sha256:${'cd'.repeat(32)}`),
      ),
    ],
  };
  for (const [name, args] of Object.entries(fixtures)) runs[name] = runChecker(args);
});

afterAll(async () => {
  await Promise.all(Object.values(runs));
  rmSync(work, { recursive: true, force: true });
});

// the fixtures run two at a time, all started before the first test; each loads the Kubernetes schemas and TypeScript
// and builds every kustomization, so a late fixture waits for the ones before it
const CHECK_TIME = 600_000;

describe('check:deploy', () => {
  it(
    'passes on the repository as committed',
    async () => {
      const run = await runs.repo;
      expect(problems(run)).toEqual([]);
      expect(run.stdout).toMatch(/^check:deploy: ok \(\d+ Kubernetes objects/);
      expect(run.code).toBe(0);
    },
    CHECK_TIME,
  );

  it(
    'rejects a manifest field of the wrong type, naming file and object',
    async () => {
      const run = await runs.wrongType;
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('k8s-wrong-type/base/identity.yaml: Deployment/identity: spec.revisionHistoryLimit: must be integer');
      expect(run.stderr).toMatch(/check:deploy: \d+ problem\(s\)/);
    },
    CHECK_TIME,
  );

  it(
    'rejects an unknown (misspelt) field, which the API schemas alone would let through',
    async () => {
      const run = await runs.typo;
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "store.yaml: Deployment/store: spec.template.spec.containers[0].readinesProbe: unknown field 'readinesProbe' (did you mean 'readinessProbe'?)",
      );
      expect(run.stderr).toContain('Deployment/store: containers[0] (store): readinessProbe is missing (GET /ready)');
    },
    CHECK_TIME,
  );

  it(
    'rejects a committed Secret with values and a secret given as a literal env value',
    async () => {
      const secret = await runs.literalSecret;
      expect(secret.code).toBe(1);
      expect(secret.stderr).toContain('k8s-secret/base/leak.yaml: Secret/beacon-secrets: commits secret values (DATABASE_URL)');
      const env = await runs.literalEnv;
      expect(env.code).toBe(1);
      expect(env.stderr).toMatch(
        /alerts\.yaml: Deployment\/alerts: (initContainers|containers)\[0\]\.env DATABASE_URL has a literal value: secrets must come from secretKeyRef/,
      );
    },
    CHECK_TIME,
  );

  it(
    'rejects KEDA triggers on a queue that does not exist or under the wrong prefix, and a ScaledObject off its schema',
    async () => {
      const queue = await runs.kedaQueue;
      expect(queue.code).toBe(1);
      expect(queue.stderr).toMatch(
        /dispatcher-scaledobject\.yaml: ScaledObject\/dispatcher: triggers\[\d\]: 'channel-pusj' is not a queue in libs\/contracts\/src\/queues\.ts/,
      );
      const prefix = await runs.kedaPrefix;
      expect(prefix.code).toBe(1);
      expect(prefix.stderr).toMatch(
        /ScaledObject\/dispatcher: triggers\[\d\]: listName 'beacon:channel-sms:wait' uses prefix 'beacon' but the queues live under 'beacon:bull'/,
      );
      const schema = await runs.kedaSchema;
      expect(schema.code).toBe(1);
      expect(schema.stderr).toContain('ScaledObject/dispatcher: spec.minReplicaCount: must be integer');
    },
    CHECK_TIME,
  );

  it(
    'rejects a dispatcher autoscaler that does not scale on CPU, and a cpu trigger off its schema',
    async () => {
      const noCpu = await runs.kedaNoCpu;
      expect(noCpu.code).toBe(1);
      expect(noCpu.stderr).toContain('dispatcher-scaledobject.yaml: ScaledObject/dispatcher: no cpu trigger');
      const metricType = await runs.kedaCpuMetricType;
      expect(metricType.code).toBe(1);
      expect(metricType.stderr).toMatch(/ScaledObject\/dispatcher: spec\.triggers\[\d+\]\.metricType: must be equal to one of the allowed values/);
      const hpa = await runs.hpaNoCpu;
      expect(hpa.code).toBe(1);
      expect(hpa.stderr).toContain('dispatcher-hpa.yaml: HorizontalPodAutoscaler/dispatcher: no cpu Resource metric');
    },
    CHECK_TIME,
  );

  it(
    'rejects a ScaledObject that combines fallback with a cpu trigger, which KEDA 2.14 to 2.16 refuse at admission',
    async () => {
      const run = await runs.kedaFallbackWithCpu;
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'dispatcher-scaledobject.yaml: ScaledObject/dispatcher: spec.fallback with a cpu trigger: KEDA 2.14 to 2.16 reject this ScaledObject at admission',
      );
    },
    CHECK_TIME,
  );

  it(
    'builds every kustomization as kubectl apply -k would: an overlay inside its own base is a cycle',
    async () => {
      const cycle = await runs.overlayInBase;
      expect(cycle.code).toBe(1);
      expect(cycle.stderr).toMatch(/overlays\/hpa\/kustomization\.yaml: Kustomization: kubectl kustomize fails: .*cycle detected/);
    },
    CHECK_TIME,
  );

  it(
    'builds every overlay, the Redis Sentinel and Cluster ones included, and fails when one does not build',
    async () => {
      const repo = await runs.repo;
      // the warning names every overlay that built
      const built = /WARNING image beacon\/dispatcher:\S+ is not pinned by digest \(([^)]*)\)/.exec(repo.stderr)?.[1].split(', ');
      expect(built).toEqual(readdirSync(join(ROOT, 'k8s', 'overlays')).map((o) => `k8s/overlays/${o}`));
      const renamed = await runs.kedaTriggerRenamed;
      expect(renamed.code).toBe(1);
      for (const overlay of ['keda-redis-cluster', 'keda-redis-sentinel'])
        expect(renamed.stderr).toMatch(new RegExp(`overlays/${overlay}/kustomization\\.yaml: Kustomization: kubectl kustomize fails: `));
      expect(renamed.stderr).not.toMatch(/overlays\/keda\/kustomization\.yaml: Kustomization: kubectl kustomize fails/);
    },
    CHECK_TIME,
  );

  it(
    'holds the Cluster triggers to the hash-tagged queue prefix and the Sentinel Secret keys to their documentation, as rendered',
    async () => {
      const prefix = await runs.clusterPlainPrefix;
      expect(prefix.code).toBe(1);
      expect(prefix.stderr).toContain(
        "overlays/keda-redis-cluster/kustomization.yaml: ScaledObject/dispatcher: triggers[2]: listName 'beacon:bull:channel-sms:wait' uses prefix 'beacon:bull' but the queues live under '{beacon}:bull' for a redis-cluster trigger",
      );
      const key = await runs.sentinelUndocumentedKey;
      expect(key.code).toBe(1);
      expect(key.stderr).toContain(
        'overlays/keda-redis-sentinel/kustomization.yaml: TriggerAuthentication/beacon-redis: references Secret beacon-secrets key REDIS_SENTINEL_PRIMARY, which k8s/secrets.example.md does not explain',
      );
    },
    CHECK_TIME,
  );

  it(
    'warns loudly that the images are not pinned by digest, and not once they are',
    async () => {
      const run = await runs.repo;
      expect(run.stderr).toMatch(/^check:deploy: WARNING image beacon\/identity:1\.2\.0 is not pinned by digest \(k8s\/overlays\/gateway-api-hpa, /m);
      expect(run.stderr).toContain('check:deploy: WARNING image beacon/edge:1.2.0 is not pinned by digest');
      expect(run.stderr).toContain('check:deploy: WARNING docker-compose.yml: service postgres: image postgres:15-bookworm is not pinned by digest');
      const pinned = await runs.pinned;
      expect(problems(pinned)).toEqual([]);
      expect(pinned.code).toBe(0);
      expect(pinned.stderr).not.toMatch(/WARNING image beacon\//);
    },
    CHECK_TIME,
  );

  it(
    'judges each overlay as rendered: a default deny, every needed flow open at both ends, nothing more',
    async () => {
      const run = await runs.networkPolicies;
      expect(run.code).toBe(1);
      const err = problems(run).join('\n');
      expect(err).toContain('k8s-netpol/overlays/keda/kustomization.yaml: Namespace/beacon: no default-deny NetworkPolicy');
      expect(err).toContain(
        'k8s-netpol/overlays/keda/kustomization.yaml: Deployment/dispatcher: cannot reach PostgreSQL (it is given DATABASE_URL): no NetworkPolicy allows egress TCP 5432',
      );
      expect(err).toContain('k8s-netpol/overlays/hpa/kustomization.yaml: Deployment/traffic: does not admit the ingress controller or the Gateway');
      expect(err).toContain('NetworkPolicy/beacon-from-ingress-controller: admits the front door to Deployment/dispatcher, which no route sends traffic to');
      expect(err).toMatch(/Deployment\/store: admits Deployment\/dispatcher on TCP 3003 \(http\), which nothing needs/);
      // the Gateway API overlays keep their own front door, so traffic is still admitted there
      expect(err).not.toContain('gateway-api-keda/kustomization.yaml: Deployment/traffic: does not admit');
    },
    CHECK_TIME,
  );

  it(
    'validates the Gateway API objects and needs session persistence for /socket.io',
    async () => {
      const run = await runs.gatewayApi;
      expect(run.code).toBe(1);
      const err = problems(run).join('\n');
      expect(err).toMatch(/gateway\.yaml: HTTPRoute\/beacon-socket: spec\.rules\[0\]: must NOT have additional properties \('sessionPersistance'\)/);
      expect(err).toContain(
        'k8s-gateway-api/overlays/gateway-api-keda/kustomization.yaml: HTTPRoute/beacon-socket: the /socket.io rule needs sessionPersistence',
      );
    },
    CHECK_TIME,
  );

  it(
    'needs one autoscaler keeping 2 replicas for every Deployment, and no replicas of their own',
    async () => {
      const run = await runs.autoscaling;
      expect(run.code).toBe(1);
      const err = problems(run).join('\n');
      expect(err).toContain(
        'k8s-autoscaling/overlays/keda/kustomization.yaml: Deployment/gateway: no autoscaler (HorizontalPodAutoscaler or KEDA ScaledObject) scales it',
      );
      expect(err).toContain('k8s-autoscaling/overlays/hpa/kustomization.yaml: Deployment/identity: sets replicas (2) although an autoscaler owns the count');
    },
    CHECK_TIME,
  );

  it(
    'validates what an overlay renders: the KEDA overlay must render a valid ScaledObject',
    async () => {
      const run = await runs.kedaRendered;
      expect(run.code).toBe(1);
      expect(problems(run)).toContain(
        `${join(work, 'k8s-keda-rendered')}/overlays/keda/kustomization.yaml: ScaledObject/dispatcher: spec.minReplicaCount: must be integer (as rendered)`,
      );
      // the file itself is valid, and the other overlays render it unchanged
      expect(run.stderr).not.toContain('dispatcher-scaledobject.yaml: ScaledObject/dispatcher: spec.minReplicaCount');
      expect(run.stderr).not.toContain('overlays/gateway-api-keda/kustomization.yaml: ScaledObject/dispatcher: spec.minReplicaCount');
    },
    CHECK_TIME,
  );

  it(
    "sets the host once: a route not serving PUBLIC_URL's host is refused",
    async () => {
      const run = await runs.hostTwice;
      expect(run.code).toBe(1);
      expect(problems(run).join('\n')).toContain(
        "k8s-host/overlays/keda/kustomization.yaml: Ingress/beacon: serves host 'set-from-public-url.invalid', not PUBLIC_URL's 'beacon.example.org'",
      );
    },
    CHECK_TIME,
  );

  it(
    'rejects an Ingress that routes a service prefix elsewhere',
    async () => {
      const run = await runs.ingress;
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("ingress.yaml: Ingress/beacon: path /api/store goes to 'incidents', not 'store'");
    },
    CHECK_TIME,
  );

  it(
    'rejects a grace period shorter than the service finishes its jobs in',
    async () => {
      const run = await runs.grace;
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /dispatcher\.yaml: Deployment\/dispatcher: terminationGracePeriodSeconds \(30\) must be longer than SHUTDOWN_GRACE_SECONDS \(\d+\)/,
      );
    },
    CHECK_TIME,
  );

  it(
    'rejects a service without a Deployment, a Service or a PodDisruptionBudget',
    async () => {
      const run = await runs.missingDeployment;
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Deployment/gateway: services/gateway has no Deployment named 'gateway'");
    },
    CHECK_TIME,
  );

  it(
    "needs, in every overlay, a PodMonitor scraping every service's /metrics port and nothing without /metrics",
    async () => {
      const selection = await runs.podMonitorSelection;
      expect(selection.code).toBe(1);
      const err = problems(selection).join('\n');
      expect(err).toMatch(/components\/prometheus\/podmonitor\.yaml: PodMonitor\/beacon: spec\.podMetricsEndpoints\[0\]\.interval: must match pattern/);
      for (const overlay of ['gateway-api-hpa', 'gateway-api-keda', 'hpa', 'keda']) {
        expect(err).toContain(
          `k8s-podmonitor-selection/overlays/${overlay}/kustomization.yaml: Deployment/dispatcher: no PodMonitor selects its pods: Prometheus never scrapes its /metrics (port 3006 (http))`,
        );
        expect(err).toContain(
          `k8s-podmonitor-selection/overlays/${overlay}/kustomization.yaml: PodMonitor/beacon: podMetricsEndpoints[0] scrapes Deployment/web on port 8080 (http), which serves no /metrics`,
        );
      }
      expect(err).not.toContain('Deployment/identity: no PodMonitor');

      const port = await runs.podMonitorPort;
      expect(port.code).toBe(1);
      const perr = problems(port).join('\n');
      expect(perr).toContain(
        "k8s-podmonitor-port/overlays/keda/kustomization.yaml: PodMonitor: none: Prometheus scrapes no service's /metrics (include the component k8s/components/prometheus",
      );
      expect(perr).toContain(
        'k8s-podmonitor-port/overlays/hpa/kustomization.yaml: Deployment/store: PodMonitor/beacon selects its pods but no podMetricsEndpoints entry scrapes port 3003 (http), where it serves /metrics',
      );
      expect(perr).toContain(
        'k8s-podmonitor-port/overlays/hpa/kustomization.yaml: PodMonitor/beacon: podMetricsEndpoints[0] scrapes Deployment/identity at http://…:3001/stats',
      );
      expect(perr).toContain(
        'k8s-podmonitor-port/overlays/gateway-api-hpa/kustomization.yaml: Deployment/identity: does not admit Prometheus on TCP 3001 (http) (PodMonitor/beacon scrapes it)',
      );
    },
    CHECK_TIME,
  );

  it(
    'needs every ConfigMap a pod reads generated with the content hash, and every reference resolving in every overlay',
    async () => {
      const plain = await runs.configPlain;
      expect(plain.code).toBe(1);
      const err = problems(plain).join('\n');
      expect(err).toMatch(
        /k8s-config-plain\/base\/config\.yaml: ConfigMap\/beacon-config: read by Deployment\/alerts, .*Deployment\/web, but a plain ConfigMap: a change to it rolls none of their pods/,
      );
      expect(err).toMatch(/k8s-config-plain\/overlays\/keda\/kustomization\.yaml: ConfigMap\/beacon-config: read by .* under a name without a content hash/);

      const noHash = await runs.configNoHash;
      expect(noHash.code).toBe(1);
      const nerr = problems(noHash).join('\n');
      expect(nerr).toMatch(/k8s-config-no-hash\/base\/kustomization\.yaml: ConfigMap\/beacon-config: configMapGenerator with disableNameSuffixHash, read by /);
      expect(nerr).toContain("k8s-config-no-hash/base/config.env: line 11: 'LOG_FORMAT' is not KEY=value: kustomize would take the value from the environment");
      expect(nerr).toContain(
        "k8s-config-no-hash/overlays/keda/kustomization.yaml: Deployment/identity: containers[0].envFrom[0]: ConfigMap 'beacon-settings' is not in what this overlay renders",
      );
      expect(nerr).not.toContain("gateway-api-keda/kustomization.yaml: Deployment/identity: containers[0].envFrom[0]: ConfigMap 'beacon-settings'");
    },
    CHECK_TIME,
  );

  it(
    'needs every Deployment spread over nodes and zones, and every PodDisruptionBudget letting a drain evict unhealthy pods',
    async () => {
      const run = await runs.availability;
      expect(run.code).toBe(1);
      const err = problems(run).join('\n');
      expect(err).toContain('k8s-availability/base/identity.yaml: Deployment/identity: no topologySpreadConstraints over topology.kubernetes.io/zone');
      expect(err).toContain(
        'k8s-availability/base/gateway.yaml: Deployment/gateway: the topologySpreadConstraints over topology.kubernetes.io/zone: whenUnsatisfiable must be ScheduleAnyway (found DoNotSchedule)',
      );
      expect(err).toContain(
        "k8s-availability/base/web.yaml: Deployment/web: the topologySpreadConstraints over kubernetes.io/hostname: its labelSelector does not select the Deployment's own pods",
      );
      expect(err).toContain(
        'k8s-availability/base/store.yaml: PodDisruptionBudget/store: spec.unhealthyPodEvictionPolicy must be AlwaysAllow (found none: IfHealthyBudget)',
      );
      expect(err).not.toMatch(/Deployment\/(alerts|incidents|traffic|dispatcher): (no topologySpreadConstraints|the topologySpreadConstraints)/);
      expect(err).not.toMatch(/PodDisruptionBudget\/(identity|gateway|web)/);
    },
    CHECK_TIME,
  );

  it(
    'rejects a compose file with an unknown key, and one that starts services before the migration',
    async () => {
      const unknown = await runs.composeUnknownKey;
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("compose-unknown.yml: services.redis: must NOT have additional properties ('colour')");
      const order = await runs.composeNoMigrateOrder;
      expect(order.code).toBe(1);
      expect(order.stderr).toContain('compose-order.yml: service identity: must depend on migrate with condition service_completed_successfully');
    },
    CHECK_TIME,
  );

  it(
    'rejects a Dockerfile copying a path that is missing, excluded by .dockerignore, or running as root',
    async () => {
      const missing = await runs.dockerMissingPath;
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/Dockerfile\.missing: line \d+ \(stage build\): COPY source 'does-not-exist' does not exist in the build context/);
      const ignored = await runs.dockerIgnoredPath;
      expect(ignored.code).toBe(1);
      expect(ignored.stderr).toMatch(/Dockerfile\.ignored: line \d+ \(stage build\): COPY source 'e2e' is excluded by \.dockerignore/);
      const root = await runs.dockerRoot;
      expect(root.code).toBe(1);
      expect(root.stderr).toMatch(/Dockerfile\.root: target identity \(line \d+\): runs as root/);
    },
    CHECK_TIME,
  );

  it(
    'keeps the edge image slim, runs a supported Node.js LTS, and warns while the base image is not pinned by digest',
    async () => {
      const fat = await runs.dockerFatEdge;
      expect(fat.code).toBe(1);
      expect(fat.stderr).toMatch(/Dockerfile\.fat-edge: target edge \(line \d+\): is built FROM stage runtime, which installs every service's dependencies/);
      const repo = await runs.repo;
      expect(repo.stderr).toMatch(/^check:deploy: WARNING Dockerfile: stage runtime \(line \d+\) is FROM node:22-bookworm-slim, not pinned by digest/m);
      const node20 = await runs.dockerNode20;
      expect(node20.code).toBe(1);
      expect(node20.stderr).toMatch(/Dockerfile\.node20: stage runtime \(line \d+\): FROM node:20-bookworm-slim: Node\.js 20 is not a supported LTS line/);
      const pinned = await runs.dockerPinned;
      expect(problems(pinned)).toEqual([]);
      expect(pinned.code).toBe(0);
      expect(pinned.stderr).not.toContain('WARNING Dockerfile');
    },
    CHECK_TIME,
  );
});
