/** A raw HTTP answer: status and the parsed JSON body (or the text when not JSON). */
export interface RawAnswer {
  status: number;
  body: unknown;
  text: string;
}

/** Sends a request with full control over the path, the body and its content type. */
export async function sendRaw(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  body?: string | Uint8Array | FormData,
  contentType?: string,
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  const res = await fetch(baseUrl + pathAndQuery, { method, body, headers, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the envelope check reports it
  }
  return { status: res.status, body: parsed, text };
}

/** `a=1&b=2` from pairs (duplicates kept), RFC 3986 percent-encoding. */
export function formEncode(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
