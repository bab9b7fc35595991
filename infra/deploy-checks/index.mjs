/**
 * The whole check, subject by subject. The order is the order problems are printed in; later checks use what earlier
 * ones read (compose and Kubernetes use the Dockerfile's stages).
 */
import { join } from 'node:path';
import { checkCompose } from './compose.mjs';
import { checkDockerTargets, imageSetsHost, readDockerfile } from './dockerfile.mjs';
import { checkKubernetes } from './kubernetes/index.mjs';
import { parseArgs } from './options.mjs';
import { Report } from './report.mjs';
import { readRepository } from './repository.mjs';
import { checkVariablesHandled } from './variables.mjs';

export async function checkDeploy(argv = []) {
  const opts = parseArgs(argv);
  const report = new Report(opts.root);
  const repo = readRepository(opts.root);
  if (!repo.services.length) report.error(join(opts.root, 'services'), '', 'no services found (services/<name>/src/main.ts)');
  const docker = readDockerfile(opts, report, repo);
  checkDockerTargets(report, docker, repo);
  repo.imageSetsHost = imageSetsHost(docker, repo.services);
  const compose = checkCompose(opts, report, repo, docker);
  const { objects, files } = await checkKubernetes(opts, report, repo);
  // without manifests every variable would also be reported as unset in Kubernetes: one problem says it already
  if (files.length) checkVariablesHandled(report, objects, repo);
  const summary = `${objects.length} Kubernetes objects in ${files.length} files, ${Object.keys(compose.services ?? {}).length} compose services, ${docker.stages?.size ?? 0} Dockerfile stages, ${repo.services.length} services`;
  return { problems: report.problems, warnings: report.warnings, summary };
}
