// One request of a load spec before it is driven: the answer must have the expected status
// and body, so a run never measures a fast error path.
import { createRequire } from 'node:module';
import { request } from 'node:http';

const require = createRequire(import.meta.url);

export function send(url, { method = 'GET', path, body, headers = {} }) {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The path of the spec's first request (generators make their own). */
export function firstPath(spec) {
  if (!spec.generator) return spec.path;
  const { pathMaker } = require('../load/hooks.cjs');
  return pathMaker({ ...spec, phase: 9 })();
}

export async function preflight(url, spec, label) {
  const res = await send(url, { ...spec, path: firstPath(spec) });
  const want = spec.expectStatus ?? 200;
  const short = res.text.length > 300 ? `${res.text.slice(0, 300)}...` : res.text;
  if (res.status !== want) throw new Error(`${label}: expected HTTP ${want}, got ${res.status}: ${short}`);
  for (const fragment of spec.expectBody ?? []) {
    if (!res.text.includes(fragment)) throw new Error(`${label}: answer lacks ${fragment}: ${short}`);
  }
  if (spec.check) {
    const problem = spec.check(JSON.parse(res.text));
    if (problem) throw new Error(`${label}: ${problem}: ${short}`);
  }
  return res;
}
