/**
 * What each overlay renders, judged as one installation: its autoscalers, its routing, its network flows, its settings
 * (every ConfigMap reference resolves, to a name with the content hash), its scraping (a PodMonitor for every service),
 * and whether its images are pinned by digest (a warning: no registry is reachable from here to look a digest up).
 */
import { checkOverlayAutoscaling } from './autoscaling.mjs';
import { checkOverlayConfig } from './config.mjs';
import { checkOverlayMonitoring } from './monitoring.mjs';
import { checkNetworkPolicies } from './networkpolicy.mjs';
import { containersOf } from './objects.mjs';
import { checkRouting } from './routing.mjs';

const PINNED = /@sha256:[0-9a-f]{64}$/;

export function checkOverlays(report, overlays, repo) {
  const unpinned = new Map(); // image -> overlays
  for (const { file, dir, objects } of overlays) {
    if (!objects) continue;
    checkOverlayAutoscaling(report, file, objects, repo);
    checkRouting(report, file, objects, repo);
    checkNetworkPolicies(report, file, objects, repo);
    checkOverlayConfig(report, file, objects);
    checkOverlayMonitoring(report, file, objects, repo);
    for (const object of objects) {
      for (const { container } of containersOf(object)) {
        const image = String(container.image ?? '');
        if (/@sha256:/.test(image) && !PINNED.test(image))
          report.error(file, `${object.kind}/${object.metadata?.name}`, `image '${image}': a digest is @sha256: and 64 hex digits`);
        else if (!PINNED.test(image)) unpinned.set(image, [...(unpinned.get(image) ?? []), report.show(dir)]);
      }
    }
  }
  for (const [image, where] of unpinned) {
    report.warn(
      `image ${image} is not pinned by digest (${[...new Set(where)].join(', ')}): a tag can be moved; pin it with \`kustomize edit set image ${image.split(':')[0]}=<registry>/${image.split(':')[0]}:<tag>@sha256:<digest>\` in k8s/base (docs/deploy.md, "Pinning images")`,
    );
  }
}
