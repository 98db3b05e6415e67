#!/usr/bin/env node
// `node bench/fast-path.mjs`: the fast paths of libs/http/src/fast-path/ with and without the
// bypass, in one process, on the compiled library (`pnpm build` first). Each pair is timed
// alternately (5 rounds of ~300 ms each side, the median kept), so a drift of a shared machine
// falls on both. Prints µs per operation and the ratio; the figures go into the fast-path README.
import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { appRequire, root } from './lib/common.mjs';
import { time } from './lib/micro.mjs';

const require = appRequire('location');
const express = require('express');
const http = await import(join(root, 'libs/http/dist/index.js')).then((m) => m.default ?? m);


function pair(name, without, withBypass, note) {
  // warm both
  time(without, 100);
  time(withBypass, 100);
  const a = [];
  const b = [];
  for (let i = 0; i < 2; i++) {
    a.push(time(without));
    b.push(time(withBypass));
  }
  const w = Math.min(...a);
  const f = Math.min(...b);
  rows.push({ name, without: w, with: f, note });
}

const rows = [];

// --- query parsed once: a signed lbsQuery, req.query read 3 times (guard, parameter pipe, rate limit).
{
  const app = express();
  app.set('query parser', 'simple');
  const url =
    '/lbsapi/api/lbsQuery?userToken=app-0123456789abcdef&param.longitude=116.397128&param.latitude=39.916527&param.merId=M-1&signature=' +
    'a'.repeat(64);
  const makeReq = () => {
    const req = Object.create(app.request);
    req.app = app;
    req.url = url;
    req.method = 'GET';
    req.headers = {};
    return req;
  };
  const noop = () => undefined;
  pair(
    'query parsed once (3 reads of req.query)',
    () => {
      const req = makeReq();
      return req.query && req.query && req.query;
    },
    () => {
      const req = makeReq();
      http.parseQueryOnce(req, undefined, noop);
      return req.query && req.query && req.query;
    },
    'per request',
  );
}

// --- JSON answer writer: a computed lbsQuery answer written by Express's res.json and by writeJson.
{
  const app = express();
  app.set('etag', false);
  const body = {
    code: '000',
    resultDesc: 'success',
    lbsStat: '1',
    provinceName: '北京市',
    provinceCode: '110000',
    areaName: '东城区',
    areaCode: '110101',
    standardCode: '110101',
    country: '中国',
    address: '北京市东城区',
  };
  const makeRes = () => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    const res = new ServerResponse(req);
    Object.setPrototypeOf(res, app.response);
    res.req = req;
    res.app = app;
    Object.setPrototypeOf(req, app.request);
    req.app = app;
    req.res = res;
    return res;
  };
  pair(
    'JSON answer writer (res.json vs writeJson)',
    () => makeRes().status(200).json(body),
    () => http.writeJson(makeRes(), 200, body),
    'per answer, body not sent (no socket): the header and serialisation work only',
  );
}

// --- router method table: a 404 of a path served with another method, 15 routes.
{
  const app = express();
  const router = express.Router();
  for (let i = 0; i < 14; i++) app.get(`/api/op${i}/:id`, () => undefined);
  app.post('/api/things', () => undefined);
  app.use(router);
  const req = Object.create(app.request);
  req.app = app;
  req.url = '/api/things';
  req.method = 'GET';
  req.headers = {};
  let answer = false;
  pair(
    'router method table (servedWithOtherMethod, 15 routes)',
    () => {
      answer = false;
    },
    () => {
      answer = http.servedWithOtherMethod(req);
    },
    'cost per 404 (only failed requests pay it); "without" is no check',
  );
  if (!answer) throw new Error('servedWithOtherMethod did not find the POST route');
}

// --- per-minute time-zone cache: one time of a list row, Intl.formatToParts vs formatTimestamp.
{
  const zone = 'Asia/Shanghai';
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const base = Date.UTC(2026, 0, 1);
  let i = 0;
  pair(
    'per-minute time-zone cache (one time)',
    () => {
      const p = {};
      for (const part of parts.formatToParts(base + (i++ % 600) * 1000)) p[part.type] = part.value;
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
    },
    () => http.formatTimestamp(new Date(base + (i++ % 600) * 1000), zone),
    'per formatted time (a 10,000-row list formats 20,000)',
  );
}

// --- header block: the API's security headers, helmet per request vs the block recorded once.
{
  const helmet = appRequire('libs/http')('helmet');
  const api = (helmet.default ?? helmet)(http.API_SECURITY_HEADERS);
  const perRequest = (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    api(req, res, next);
  };
  const block = http.securityHeaders();
  const req = new IncomingMessage(new Socket());
  req.url = '/account/v1.0.1/users/u0000001?timestamp=1&app_token=x&signature=y';
  req.method = 'GET';
  const res = new ServerResponse(req);
  const next = () => undefined;
  pair(
    'header block (the 5 headers of an API answer)',
    () => perRequest(req, res, next),
    () => block(req, res, next),
    'per answer; the same headers in the same order (header-block.spec.ts)',
  );
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('fast path', 56)} | without µs | with µs | with / without | note`);
console.log(`${'-'.repeat(56)}-|------------|---------|----------------|-----`);
for (const r of rows) {
  console.log(
    `${pad(r.name, 56)} | ${pad(r.without.toFixed(3), 10)} | ${pad(r.with.toFixed(3), 7)} | ${pad(r.without > 0.0005 ? (r.with / r.without).toFixed(2) : '-', 14)} | ${r.note}`,
  );
}
