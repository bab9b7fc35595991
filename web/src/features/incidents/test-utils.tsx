import type { ReactElement } from 'react';
import { renderSignedIn } from '@/test/render-screen';

export { jsonResponse as json } from '@/test/json-response';

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

/** Answers the screen's API calls with `answer` and records them. */
export function mockApi(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    // Node's Request cannot read back a multipart body holding jsdom's File (it never settles): record its type only
    const multipart = req.headers.get('content-type')?.startsWith('multipart/form-data') ?? false;
    const text =
      req.method === 'GET' || multipart
        ? ''
        : await req
            .clone()
            .text()
            .catch(() => '');
    let body: unknown = multipart ? 'multipart/form-data' : text;
    if (!multipart) {
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
    }
    const call = { method: req.method, path: url.pathname, search: url.searchParams, body };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof fetch;
  return calls;
}

/** One screen at `path` in a real store (signed in) and a memory router. */
export function renderScreen(ui: ReactElement, { path = '/', role = 'user' as 'user' | 'admin' } = {}) {
  return renderSignedIn(ui, { user: { id: '00000000-0000-4000-8000-00000000a11c', email: 'alice.driver@example.com', role }, path });
}
