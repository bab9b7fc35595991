/** The browsers a push would go to now (PushSubscriptionsRepository.receivers). */
export interface PushReceivers {
  /** Browsers of people with push on, within the per-person limit: each would be sent a push. */
  browsers: number;
  /** The people those browsers belong to. */
  people: number;
  /** Every stored subscription, whether or not it would be sent one. */
  subscribed: number;
  /** Of `browsers`, those whose last push failed (they may be retired). */
  failing: number;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Who a push would reach, said plainly for Test Connection: how many browsers of how many people, and why any
 * subscribed browser would not get one; "nobody would receive a push" when that is so, never a bare "successful".
 */
export function pushReadiness(r: PushReceivers, perPerson: number): string {
  const idle = r.subscribed - r.browsers;
  const idleWhy = `push turned off in their preferences, or past ${count(perPerson, 'browser', 'browsers')} per person`;
  if (r.subscribed === 0) return 'no browser is subscribed yet: nobody would receive a push';
  if (r.browsers === 0)
    return `${count(r.subscribed, 'browser is', 'browsers are')} subscribed but none would get a push (${idleWhy}): nobody would receive a push`;
  const parts = [`${count(r.browsers, 'browser', 'browsers')} of ${count(r.people, 'person', 'people')} subscribed`];
  if (idle > 0) parts.push(`${count(idle, 'more subscribed browser', 'more subscribed browsers')} would not get one (${idleWhy})`);
  if (r.failing > 0) parts.push(r.failing === 1 ? '1 of them failed its last push' : `${count(r.failing, '', 'of them')} failed their last push`);
  return parts.join('; ');
}
