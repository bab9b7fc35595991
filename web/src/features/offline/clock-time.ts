const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const DAY_AND_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A moment as a person reads it on a clock: "2:05 PM" today, "Mar 5, 2:05 PM" on another day. */
export function clockTime(at: number, now: number = Date.now()): string {
  const then = new Date(at);
  return then.toDateString() === new Date(now).toDateString() ? TIME.format(then) : DAY_AND_TIME.format(then);
}
