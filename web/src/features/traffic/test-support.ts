/**
 * Component-test helpers for the traffic and map screens (never imported by the app).
 * RTK Query builds Requests with relative URLs, which the browser resolves against the page and Node does not.
 */
export function resolveRelativeRequests() {
  const NodeRequest = globalThis.Request;
  if ((NodeRequest as unknown as { relativeAware?: boolean }).relativeAware) return;
  const Patched = class extends NodeRequest {
    static relativeAware = true;
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, window.location.href).toString() : input, init);
    }
  };
  globalThis.Request = Patched as unknown as typeof Request;
  // react-hot-toast asks about reduced motion
  window.matchMedia ??= ((query: string) => ({
    matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
