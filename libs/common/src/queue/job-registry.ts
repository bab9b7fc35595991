import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { Job } from 'bullmq';
import { JOB_QUEUE, JobName, JobPayloads, QueueName } from '@beacon/contracts';

const ON_JOB = 'beacon:on-job';

export type JobHandler<J extends JobName = JobName> = (data: JobPayloads[J], job: Job<JobPayloads[J]>) => Promise<unknown>;

/**
 * Marks a provider method as THE handler of one job name. Handlers must let errors propagate: a thrown
 * error is what makes BullMQ retry with backoff (UnrecoverableError fails the job at once).
 */
export function OnJob(name: JobName): MethodDecorator {
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(ON_JOB, name, descriptor.value as object);
    return descriptor;
  };
}

export class JobRegistryError extends Error {}

/** Finds every @OnJob method among the app's providers and checks the set is complete and unambiguous. */
@Injectable()
export class JobRegistry {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** The handlers for the given queues; throws when a job of these queues has no handler or two. */
  handlersFor(queues: QueueName[]): Map<JobName, JobHandler> {
    const found = new Map<JobName, { handler: JobHandler; where: string }[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      if (!proto) continue;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const fn = proto[method];
        const name = typeof fn === 'function' ? (Reflect.getMetadata(ON_JOB, fn) as JobName | undefined) : undefined;
        if (!name) continue;
        const list = found.get(name) ?? [];
        list.push({ handler: (fn as JobHandler).bind(instance), where: `${proto.constructor.name}.${method}` });
        found.set(name, list);
      }
    }
    return checkHandlers(found, queues);
  }
}

export function checkHandlers(found: Map<JobName, { handler: JobHandler; where: string }[]>, queues: QueueName[]): Map<JobName, JobHandler> {
  const problems: string[] = [];
  const handlers = new Map<JobName, JobHandler>();
  for (const name of Object.values(JobName)) {
    const list = found.get(name) ?? [];
    if (list.length > 1) problems.push(`job '${name}' has ${list.length} handlers (${list.map((h) => h.where).join(', ')})`);
    if (!queues.includes(JOB_QUEUE[name])) {
      if (list.length) problems.push(`job '${name}' has a handler (${list[0].where}) but its queue '${JOB_QUEUE[name]}' is not run here`);
      continue;
    }
    if (list.length === 0) problems.push(`job '${name}' on queue '${JOB_QUEUE[name]}' has no handler`);
    else handlers.set(name, list[0].handler);
  }
  if (problems.length) throw new JobRegistryError(`Refusing to start workers: ${problems.join('; ')}`);
  return handlers;
}
