// The HTTP API as benchmarks use it: JSON and multipart requests with one key, and a limit on
// calls in flight.

export function apiClient(baseUrl: string, key: string) {
  const auth = { authorization: `Bearer ${key}` };
  async function request<T>(method: string, route: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, headers: { ...auth } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...auth, 'content-type': 'application/json' };
    }
    const res = await fetch(`${baseUrl}${route}`, init);
    const text = await res.text();
    if (!res.ok) {
      const sent = body === undefined || body instanceof FormData ? '' : ` ${JSON.stringify(body).slice(0, 300)}`;
      throw new Error(`${method} ${route}${sent} → HTTP ${res.status}: ${text.slice(0, 1000)}`);
    }
    return JSON.parse(text) as T;
  }
  return {
    get: <T>(route: string) => request<T>('GET', route),
    post: <T>(route: string, body: unknown) => request<T>('POST', route, body),
  };
}

export type Api = ReturnType<typeof apiClient>;

/** Runs `worker` over `items` with at most `limit` calls in flight; the first failure rejects. */
export async function mapLimit<T>(items: T[], limit: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  async function lane(): Promise<void> {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await worker(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
