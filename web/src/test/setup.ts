import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; react-router reads them when it loads.
if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });

// RTK Query builds Requests with relative URLs (baseUrl '/'), which a browser resolves against the page and
// Node's Request refuses: resolve them the browser's way.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href).toString() : input, init);
  }
} as typeof Request;

// jsdom has no media queries; react-hot-toast asks about reduced motion.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;

// Components read their words from the app's language provider (issue #41): every render has one, in English.
jest.mock('@testing-library/react', () => {
  const actual = jest.requireActual('@testing-library/react');
  const { withIntl } = jest.requireActual('./intl-wrapper');
  return {
    ...actual,
    render: (ui: unknown, options: { wrapper?: unknown } = {}) => actual.render(ui, { ...options, wrapper: withIntl(options.wrapper) }),
    renderHook: (hook: unknown, options: { wrapper?: unknown } = {}) => actual.renderHook(hook, { ...options, wrapper: withIntl(options.wrapper) }),
  };
});
