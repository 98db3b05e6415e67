// Request hooks of the load generator, read from the spec in BENCH_LOAD_SPEC. A file (not
// closures) so that autocannon's worker threads can load them too.
'use strict';
const { join } = require('node:path');
const { threadId } = require('node:worker_threads');

const root = join(__dirname, '..', '..');
const spec = JSON.parse(process.env.BENCH_LOAD_SPEC || '{}');

/** True when the body holds every expected fragment. */
function verifyBody(body) {
  const want = spec.expectBody || [];
  for (let i = 0; i < want.length; i++) if (!body.includes(want[i])) return false;
  return true;
}

/** A random path of a fixed list for every request (e.g. many users' ids). */
function randomPath(g) {
  const paths = g.paths;
  return () => paths[(Math.random() * paths.length) | 0];
}

/**
 * lbsQuery with coordinates never asked before in this run: a base point of the list, moved
 * on a grid of the service's coordinate precision (`quantum` degrees), a new grid cell for
 * every round over the list, so each request is a cache miss that still lands near a known
 * place.
 */
function lbsUnique(g, phase, round) {
  const { signLbs } = require(join(root, 'libs/signing/dist/lbs-signature.js'));
  const { lbsSignedNames } = require(join(root, 'libs/signing/dist/portable/canonical.js'));
  const { hmacKey } = require(join(root, 'libs/signing/dist/hmac.js'));
  const key = hmacKey(g.secret);
  const names = lbsSignedNames(['longitude', 'latitude']);
  const width = 1000;
  // Distinct per round, run phase (preflight, warm-up, measured) and worker thread.
  let k = (((round || 0) * 10 + (phase || 0)) * 16 + threadId) * 100_000;
  let i = 0;
  return () => {
    const [lon0, lat0] = g.points[i % g.points.length];
    if (++i % g.points.length === 0) k++;
    const longitude = (lon0 + (k % width) * g.quantum).toFixed(g.decimals);
    const latitude = (lat0 + Math.floor(k / width) * g.quantum).toFixed(g.decimals);
    const signature = signLbs(key, 'lbsQuery', names, { longitude, latitude });
    return `${g.path}?param.longitude=${longitude}&param.latitude=${latitude}&userToken=${g.userToken}&signature=${signature}`;
  };
}

/** A random request (path and body) of a fixed list for every request (e.g. many users' logins). */
function randomRequest(g) {
  const requests = g.requests;
  return () => requests[(Math.random() * requests.length) | 0];
}

/** The request maker of a spec's generator of whole requests (undefined: none). */
function requestMaker(s) {
  const g = s.generator;
  return g && g.kind === 'random-request' ? randomRequest(g) : undefined;
}

/** The path maker of a spec's generator (undefined: the spec's fixed path). */
function pathMaker(s) {
  const g = s.generator;
  if (!g) return undefined;
  if (g.kind === 'random-path') return randomPath(g);
  if (g.kind === 'random-request') return () => g.requests[0].path;
  if (g.kind === 'lbs-unique') return lbsUnique(g, s.phase, s.round);
  throw new Error(`unknown generator ${g.kind}`);
}

const makePath = pathMaker(spec);
const makeRequest = requestMaker(spec);

function setupRequest(req) {
  if (makeRequest) {
    const r = makeRequest();
    req.path = r.path;
    req.body = r.body;
  } else if (makePath) req.path = makePath();
  return req;
}

module.exports = { verifyBody, setupRequest, pathMaker };
