// Reads a .cpuprofile (V8 CPU profile) and lists the functions with the most self time.
import { readFileSync } from 'node:fs';

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

/**
 * The `limit` frames with the most self time, as { name, where, selfPct }; `(idle)` is left
 * out of the percentages' base so they show where the busy time goes. Also aggregated by
 * package when `byPackage` is set.
 */
export function topFrames(file, limit = 15, { byPackage = false, byArea = false } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const self = new Map();
  const counts = new Map();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  let busy = 0;
  for (const node of profile.nodes) {
    const n = counts.get(node.id) ?? 0;
    if (n === 0) continue;
    const cf = node.callFrame;
    const name = cf.functionName || '(anonymous)';
    if (name === '(idle)') continue;
    busy += n;
    const url = cf.url.replace(/^file:\/\//, '');
    const where = url ? `${shorten(url)}:${cf.lineNumber + 1}` : '';
    const key = byArea ? areaOf(packageOf(url, name)) : byPackage ? packageOf(url, name) : `${name}\t${where}`;
    self.set(key, (self.get(key) ?? 0) + n);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, n]) => {
      const [name, where = ''] = key.split('\t');
      return { name, where, selfPct: (100 * n) / Math.max(1, busy), samples: n };
    });
}

function shorten(url) {
  const i = url.lastIndexOf('/node_modules/');
  if (i >= 0) return url.slice(i + '/node_modules/'.length);
  const j = url.indexOf('/apps/');
  if (j >= 0) return url.slice(j + 1);
  const k = url.indexOf('/libs/');
  return k >= 0 ? url.slice(k + 1) : url;
}

function packageOf(url, name) {
  if (IDLE.has(name)) return name;
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const i = url.lastIndexOf('/node_modules/');
  if (i >= 0) {
    const rest = url.slice(i + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

/** Packages grouped by the layer of a request they serve. */
const AREAS = [
  ['observer and logs', ['pino', 'pino-std-serializers', 'sonic-boom', 'fast-redact', 'libs/observability']],
  ['validation', ['class-validator', 'class-transformer', 'validator', 'libphonenumber-js']],
  ['metrics', ['prom-client', 'tdigest', 'bintrees']],
  ['security headers', ['helmet']],
  ['libs/http (fast paths, defaults, rate limit)', ['libs/http']],
  ['NestJS', ['@nestjs/core', '@nestjs/common', '@nestjs/platform-express', '@nestjs/terminus', 'rxjs', 'reflect-metadata']],
  [
    'Express',
    [
      'express',
      'router',
      'body-parser',
      'path-to-regexp',
      'content-type',
      'type-is',
      'qs',
      'parseurl',
      'finalhandler',
      'send',
      'on-finished',
      'depd',
      'debug',
      'mime-types',
      'vary',
      'etag',
      'fresh',
      'raw-body',
      'iconv-lite',
    ],
  ],
  [
    'TypeORM + pg',
    ['typeorm', 'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'postgres-date', 'postgres-array', 'postgres-interval', 'postgres-bytea'],
  ],
  ['Redis client', ['ioredis', '@ioredis/commands', 'redis-parser', 'denque', 'standard-as-callback', 'cluster-key-slot']],
  [
    'the service',
    [
      'apps/account',
      'apps/location',
      'libs/signing',
      'libs/api',
      'lru-cache',
      'flatbush',
      'kdbush',
      'geokdbush',
      '@rapideditor/country-coder',
      'which-polygon',
    ],
  ],
  ['Node + syscalls', ['node:internal', '(native)', '(program)']],
  ['GC', ['(garbage collector)']],
];

function areaOf(pkg) {
  for (const [area, packages] of AREAS) if (packages.includes(pkg)) return area;
  return `other (${pkg})`;
}
