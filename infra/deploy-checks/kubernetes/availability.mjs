/**
 * What keeps the replicas of a Deployment up when the cluster changes under them: they are spread over nodes and over
 * zones (a lost node or zone takes only its share), and their PodDisruptionBudget lets a drain evict a pod that is not
 * Ready anyway (it serves nothing; protecting it only blocks the drain).
 */
import { matchesSelector, objectName, ofKind } from './objects.mjs';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

/** Every Deployment spreads its pods over nodes and over zones; over zones softly (ScheduleAnyway). */
function checkTopologySpread(report, objects) {
  for (const { file, object } of ofKind(objects, 'Deployment')) {
    const name = objectName(object);
    const labels = object.spec?.template?.metadata?.labels ?? {};
    const constraints = object.spec?.template?.spec?.topologySpreadConstraints ?? [];
    for (const [key, unit] of [
      [HOSTNAME, 'node'],
      [ZONE, 'zone'],
    ]) {
      const spread = constraints.filter((c) => c.topologyKey === key);
      if (!spread.length) {
        report.error(
          file,
          name,
          `no topologySpreadConstraints over ${key}: its replicas may all land in one ${unit}, and losing that ${unit} takes it down (add one with whenUnsatisfiable: ScheduleAnyway)`,
        );
        continue;
      }
      for (const c of spread) {
        if (!matchesSelector(c.labelSelector, labels))
          report.error(
            file,
            name,
            `the topologySpreadConstraints over ${key}: its labelSelector does not select the Deployment's own pods, so it spreads nothing`,
          );
        // DoNotSchedule over zones: nodes without the zone label are never used (a one-zone or bare-metal cluster
        // schedules nothing), and a lost zone leaves new pods Pending until it is back (the skew can not be met)
        if (key === ZONE && c.whenUnsatisfiable !== 'ScheduleAnyway')
          report.error(
            file,
            name,
            `the topologySpreadConstraints over ${key}: whenUnsatisfiable must be ScheduleAnyway (found ${c.whenUnsatisfiable ?? 'none'}): DoNotSchedule leaves pods Pending on nodes without the zone label and while a zone is lost`,
          );
      }
    }
  }
}

/**
 * Every PodDisruptionBudget sets unhealthyPodEvictionPolicy AlwaysAllow. With the default (IfHealthyBudget) a pod that
 * runs but is not Ready counts against the budget: with maxUnavailable 1, one crash-looping pod blocks `kubectl drain`
 * of its node (and a cluster upgrade) until it recovers. Needs Kubernetes 1.27 or later (on by default there, GA in 1.31).
 */
function checkDisruptionBudgets(report, objects) {
  for (const { file, object } of ofKind(objects, 'PodDisruptionBudget')) {
    const policy = object.spec?.unhealthyPodEvictionPolicy;
    if (policy !== 'AlwaysAllow')
      report.error(
        file,
        objectName(object),
        `spec.unhealthyPodEvictionPolicy must be AlwaysAllow (found ${policy ?? 'none: IfHealthyBudget'}): otherwise a pod that runs but is not Ready uses up the budget and blocks \`kubectl drain\` of its node until it recovers`,
      );
  }
}

export function checkAvailability(report, objects) {
  checkTopologySpread(report, objects);
  checkDisruptionBudgets(report, objects);
}
