/** What a JSON API answered: the status, the parsed body (null when empty) and the headers. */
export interface JsonAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A caller of a service's JSON API for integration specs: `call(method, path, token, body, headers)`, with the
 * bearer token when one is given. `baseUrl` is read at each call, so a spec can make it before its service starts.
 */
export function jsonClient(baseUrl: () => string) {
  return async function call<T = any>(
    method: string,
    path: string,
    token?: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonAnswer<T>> {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  };
}
