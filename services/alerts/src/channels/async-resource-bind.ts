import { AsyncResource } from 'node:async_hooks';

type Bind = (fn: (...args: any[]) => unknown, thisArg?: unknown) => (...args: any[]) => unknown;

let lightened = false;

/**
 * Makes `AsyncResource.prototype.bind` stop attaching the deprecated `asyncResource` property (DEP0172) to the
 * functions it returns, in this process; everything else about it stays as Node does it (the function runs in the
 * resource's async scope with the caller's `this` and arguments, and keeps `fn`'s length).
 *
 * Why: node:http2's client binds every request to an AsyncResource, and Node 20 to 24 build that property from two
 * `util.deprecate` wrappers on each call: about 4% of a dispatcher worker's busy time at thousands of pushes a second
 * (bench/README.md), for a property nothing reads (Node means to remove it, nodejs/node#58618). Where Node no longer
 * attaches it, nothing is changed. Returns whether the method was replaced.
 */
export function lightenAsyncResourceBind(): boolean {
  if (lightened) return true;
  const proto = AsyncResource.prototype as unknown as {
    bind: Bind;
    runInAsyncScope: (fn: (...a: any[]) => unknown, thisArg: unknown, ...args: any[]) => unknown;
  };
  const original = proto.bind;
  if (!('asyncResource' in original.call(new AsyncResource('beacon.probe'), () => undefined))) return false;
  proto.bind = function bind(this: typeof proto, fn, thisArg) {
    // Node's own checks and errors for anything but a function.
    if (typeof fn !== 'function') return original.call(this, fn, thisArg);
    let bound: (...args: any[]) => unknown;
    if (thisArg === undefined) {
      const resource = this;
      bound = function (this: unknown, ...args: any[]) {
        return resource.runInAsyncScope(fn, this, ...args);
      };
    } else {
      bound = this.runInAsyncScope.bind(this, fn, thisArg);
    }
    Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
    return bound;
  };
  lightened = true;
  return true;
}
