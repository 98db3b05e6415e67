import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UPSTREAM_HEADER } from './prism-proxy';

/** The Prism proxy of this run (`E2E_VIA_PRISM=1`, started by the e2e global setup), or undefined. */
export function prismUrl(): string | undefined {
  return process.env.E2E_PRISM_URL || undefined;
}

/**
 * A `fetch` that sends every request for the service at `serviceUrl` through the run's Prism
 * proxy instead; the plain `fetch` when the run has none.
 */
export function fetchVia(serviceUrl: string): typeof fetch {
  const prism = prismUrl();
  if (!prism) return fetch;
  const service = new URL(serviceUrl);
  return async (input, init) => {
    if (!(input instanceof Request)) {
      const target = new URL(input.toString());
      if (target.origin !== service.origin) return fetch(input, init);
      const headers = new Headers(init?.headers);
      headers.set(UPSTREAM_HEADER, service.origin);
      return fetch(prism + target.pathname + target.search, { ...init, headers });
    }
    // A Request (openapi-fetch): its body as bytes, so that it goes with a Content-Length.
    const target = new URL(input.url);
    if (target.origin !== service.origin) return fetch(input, init);
    const headers = new Headers(input.headers);
    headers.set(UPSTREAM_HEADER, service.origin);
    const body = input.method === 'GET' || input.method === 'HEAD' ? null : await input.arrayBuffer();
    return fetch(prism + target.pathname + target.search, { method: input.method, headers, body, signal: input.signal });
  };
}

/** Where the answers through Prism of an app's run are recorded: beside its OpenAPI coverage. */
export function prismLogDir(coverageDir: string): string {
  return `${coverageDir}-prism`;
}

export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/**
 * Checks an answer that came through Prism: a violation of the answer is an error; a violation
 * of the request is allowed only when the service refused the request too (4xx), i.e. the test
 * sent it as deliberately invalid: a request the document refuses but the service serves means
 * the document is wrong. Every answer is recorded under `<dir>-prism` for the run's summary.
 */
export function checkPrismViolations(answer: { method: string; url: string; status: number; headers: Headers }, dir: string): void {
  const header = answer.headers.get('sl-violations');
  const record = (entry: object): void => {
    mkdirSync(prismLogDir(dir), { recursive: true });
    appendFileSync(join(prismLogDir(dir), `${process.pid}.jsonl`), `${JSON.stringify(entry)}\n`);
  };
  if (!prismUrl()) return;
  if (!header) {
    record({ ok: true });
    return;
  }
  const violations = JSON.parse(header) as PrismViolation[];
  const ofAnswer = violations.filter((v) => v.location[0] === 'response');
  const ofRequest = violations.filter((v) => v.location[0] !== 'response');
  const where = `${answer.method} ${new URL(answer.url).pathname} ${answer.status}`;
  if (ofAnswer.length > 0) throw new Error(`Prism: the answer does not match the OpenAPI document (${where}):\n${JSON.stringify(ofAnswer)}`);
  if (ofRequest.length > 0 && (answer.status < 400 || answer.status >= 500)) {
    throw new Error(`Prism: the service served a request the OpenAPI document refuses (${where}):\n${JSON.stringify(ofRequest)}`);
  }
  record({ ok: false, where, violations: ofRequest.map((v) => `${v.location.join('.')}: ${v.message}`) });
}
