export interface ClientResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends fields as a query string (GET) or as a urlencoded / multipart form (other methods). */
export async function send<T>(
  method: string,
  url: string,
  fields: Record<string, string>,
  options: { multipart?: boolean; headers?: Record<string, string> } = {},
): Promise<ClientResponse<T>> {
  let body: URLSearchParams | FormData | undefined;
  let target = url;
  if (method === 'GET' || method === 'HEAD') {
    const qs = new URLSearchParams(fields).toString();
    if (qs) target += `?${qs}`;
  } else if (options.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    body = form;
  } else {
    body = new URLSearchParams(fields);
  }
  const res = await fetch(target, { method, body, headers: options.headers });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text, the caller asserts on it
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
