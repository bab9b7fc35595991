import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function runChecker(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECKER, ...args], { cwd: ROOT, maxBuffer: 10 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let work: string;

/** A copy of one repository file or folder with one edit; fails loudly if the edit no longer applies. */
function variant(source: string, name: string, edit: (text: string) => string, file?: string): string {
  const target = join(work, name);
  cpSync(join(ROOT, source), target, { recursive: true });
  const path = file ? join(target, file) : target;
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`fixture ${name}: the edit did not change ${source}${file ? `/${file}` : ''}`);
  writeFileSync(path, after);
  return target;
}

const runs: Record<string, Promise<Run>> = {};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'beacon-deploy-check-'));
  const k8s = (name: string, file: string, edit: (t: string) => string) => ['--k8s', variant('k8s', name, edit, file)];
  const fixtures: Record<string, string[]> = {
    repo: [],
    wrongType: k8s('k8s-wrong-type', 'base/identity.yaml', (t) => t.replace(/^  replicas: 2$/m, '  replicas: two')),
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
    kedaQueue: k8s('k8s-keda-queue', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/listName: (\S+):channel-push:wait/, 'listName: $1:channel-pusj:wait'),
    ),
    kedaPrefix: k8s('k8s-keda-prefix', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/listName: \S+:(channel-sms):wait/, 'listName: beacon:$1:wait'),
    ),
    kedaSchema: k8s('k8s-keda-schema', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) => t.replace(/minReplicaCount: (\d+)/, 'minReplicaCount: "$1"')),
    kedaNoCpu: k8s('k8s-keda-no-cpu', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) => t.replace(/\n    - type: cpu\n[\s\S]*$/, '\n')),
    kedaCpuMetricType: k8s('k8s-keda-cpu-value', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/(- type: cpu\n\s+name: cpu\n\s+)metricType: Utilization/, '$1metricType: Value'),
    ),
    kedaFallbackWithCpu: k8s('k8s-keda-fallback', 'autoscaling/keda/dispatcher-scaledobject.yaml', (t) =>
      t.replace(/\n  minReplicaCount: (\d+)\n/, '\n  minReplicaCount: $1\n  fallback:\n    failureThreshold: 3\n    replicas: 4\n'),
    ),
    overlayInBase: k8s('k8s-overlay-in-base', 'autoscaling/hpa/kustomization.yaml', (t) => t.replace('../../base', '../..')),
    hpaNoCpu: k8s('k8s-hpa-no-cpu', 'autoscaling/hpa/dispatcher-hpa.yaml', (t) => t.replace(/name: cpu\n/, 'name: memory\n')),
    ingress: k8s('k8s-ingress', 'base/ingress.yaml', (t) =>
      t.replace(/(- path: \/api\/store\n\s+pathType: Prefix\n\s+backend:\n\s+service:\n\s+name: )store/, '$1incidents'),
    ),
    grace: k8s('k8s-grace', 'base/dispatcher.yaml', (t) => t.replace(/terminationGracePeriodSeconds: \d+/, 'terminationGracePeriodSeconds: 30')),
    missingDeployment: k8s('k8s-no-gateway', 'base/kustomization.yaml', (t) => {
      rmSync(join(work, 'k8s-no-gateway', 'base', 'gateway.yaml'));
      return t.replace('  - gateway.yaml\n', '');
    }),
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
  };
  for (const [name, args] of Object.entries(fixtures)) runs[name] = runChecker(args);
});

afterAll(async () => {
  await Promise.all(Object.values(runs));
  rmSync(work, { recursive: true, force: true });
});

const CHECK_TIME = 120_000; // the fixtures run in parallel; each loads the Kubernetes schemas and TypeScript

describe('check:deploy', () => {
  it(
    'passes on the repository as committed',
    async () => {
      const run = await runs.repo;
      expect(run.stderr).toBe('');
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
      expect(run.stderr).toContain('k8s-wrong-type/base/identity.yaml: Deployment/identity: spec.replicas: must be integer');
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
      expect(cycle.stderr).toMatch(/autoscaling\/hpa\/kustomization\.yaml: Kustomization: kubectl kustomize fails: .*cycle detected/);
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
});
