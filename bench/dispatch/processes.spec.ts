import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterProbes, probe, SCRAPE_INTERVAL_MS, ServiceProcess } from './processes';

const root = join(__dirname, '..', '..');

describe('the cluster the benchmark stands in for', () => {
  it("asks each service what its manifest's probes ask, as often, and scrapes /metrics", () => {
    expect(clusterProbes(join(root, 'k8s/base/dispatcher.yaml'))).toEqual([
      { path: '/health', everyMs: 10_000 },
      { path: '/ready', everyMs: 5_000 },
      { path: '/metrics', everyMs: SCRAPE_INTERVAL_MS },
    ]);
    expect(clusterProbes(join(root, 'k8s/base/alerts.yaml')).map((p) => p.path)).toEqual(['/health', '/ready', '/metrics']);
  });

  it('refuses a manifest whose Deployment has no HTTP probe, rather than measuring without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-probes-'));
    try {
      const manifest = join(dir, 'svc.yaml');
      writeFileSync(
        manifest,
        'apiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: x\n',
      );
      expect(() => clusterProbes(manifest)).toThrow(/no HTTP liveness or readiness probe/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('probe', () => {
    let server: Server;
    const asked: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        asked.push(req.url ?? '');
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('makes every probe once at the start, before any period has passed, and counts them', async () => {
      const target = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` } as ServiceProcess;
      const probes = probe([
        {
          process: target,
          probes: [
            { path: '/ready', everyMs: 60_000 },
            { path: '/metrics', everyMs: 60_000 },
          ],
        },
      ]);
      expect(await probes.stop()).toEqual({ probes: 2, failed: 0 });
      expect(asked.sort()).toEqual(['/metrics', '/ready']);
    });
  });
});
