// Location cases: lbsQuery served from the Redis cache, and lbsQuery on the offline
// geocoder's miss path (coordinates never asked before, so every request is computed).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { benchDir, root } from '../lib/common.mjs';
import { send } from '../lib/preflight.mjs';
import { startProcess } from '../lib/proc.mjs';

const require = createRequire(import.meta.url);
const { signLbs } = require(join(root, 'libs/signing/dist/lbs-signature.js'));
const { lbsSignedNames } = require(join(root, 'libs/signing/dist/portable/canonical.js'));
const { hmacKey } = require(join(root, 'libs/signing/dist/hmac.js'));

const LBS_PATH = '/lbsapi/api/lbsQuery';
const LOCATION_MAIN = join(root, 'apps/location/dist/main.js');

/**
 * Inland points (WGS-84) of mainland prefectures, far from any border: each request of the
 * miss path is one of them moved by a few metres (never the same twice).
 */
const POINTS = [
  [116.4074, 39.9042],
  [121.4737, 31.2304],
  [113.2644, 23.1291],
  [114.0579, 22.5431],
  [104.0665, 30.5723],
  [106.5516, 29.563],
  [108.9398, 34.3416],
  [114.3054, 30.5931],
  [120.1551, 30.2741],
  [118.7969, 32.0603],
  [117.2009, 39.0842],
  [112.9388, 28.2282],
  [113.6254, 34.7466],
  [117.1205, 36.6512],
  [123.4315, 41.8057],
  [126.535, 45.8038],
  [125.3245, 43.8171],
  [111.6708, 40.8183],
  [112.5489, 37.8706],
  [114.5149, 38.0428],
  [117.2272, 31.8206],
  [115.8581, 28.682],
  [119.2965, 26.0745],
  [106.6302, 26.647],
  [102.8329, 24.8801],
  [108.3669, 22.817],
  [103.8343, 36.0611],
  [101.7782, 36.6171],
  [106.2309, 38.4872],
  [87.6168, 43.8256],
  [91.1409, 29.6456],
  [110.3312, 20.0311],
  [120.3826, 36.0671],
  [121.6147, 38.914],
  [118.0894, 24.4798],
  [113.1227, 23.0288],
  [120.5853, 31.2989],
  [119.9741, 31.8112],
  [121.544, 29.8683],
  [120.6994, 27.9943],
];

export function locationEnv(ctx) {
  return {
    REDIS_URL: ctx.redis.url,
    CACHE_KEY_PREFIX: ctx.redis.prefix,
    GEOCODER: 'offline',
    COORD_SYSTEM: 'wgs84',
  };
}

export function lbsPath(app, longitude, latitude) {
  const signature = signLbs(hmacKey(app.secret), 'lbsQuery', lbsSignedNames(['longitude', 'latitude']), { longitude, latitude });
  return `${LBS_PATH}?param.longitude=${longitude}&param.latitude=${latitude}&userToken=${app.appToken}&signature=${signature}`;
}

export function locationCases(ctx) {
  const { app, targets, redis } = ctx;
  const lookupBaseline = () => ({
    script: join(benchDir, 'baselines/offline-lookup.mjs'),
    spec: { generator: uniquePoints(), expectBody: ['"code":"000"'] },
  });
  // Every request a point never asked before, at the service's coordinate precision (6 decimals).
  const uniquePoints = () => ({
    kind: 'lbs-unique',
    path: LBS_PATH,
    points: POINTS,
    quantum: 0.000001,
    decimals: 6,
    secret: app.secret,
    userToken: app.appToken,
  });
  // Tian'anmen, Beijing, put in the cache through the running service (if not there yet).
  // The cache write follows the answer: ask until the answer comes from the cache.
  const cachedSpec = async () => {
    const path = lbsPath(app, '116.397128', '39.916527');
    for (let attempt = 0; ; attempt++) {
      const res = await send(targets.location.url, { path });
      if (res.status !== 200) throw new Error(`lbsQuery answered ${res.status}: ${res.text.slice(0, 200)}`);
      if (res.text.includes('"lbsStat":"2"')) break;
      if (attempt === 20) throw new Error('the answer never came from the cache');
      await new Promise((r) => setTimeout(r, 50));
    }
    return { path, expectBody: ['"code":"000"', '"lbsStat":"2"', '110101'] };
  };
  // Tracing on: an instance of its own exporting to a local OTLP receiver, against one with
  // tracing off, in alternating rounds.
  // The target is CPU time per request over the untraced instance's (docs/performance.md, Tracing).
  const tracingOn = (id, title, cpuCost, env) => {
    let sink;
    let stats;
    return {
      id,
      title,
      service: 'location',
      target: { cpuCost },
      prepare: async () => {
        const spec = await cachedSpec();
        sink = await startProcess('otlp-sink', join(benchDir, 'baselines/otlp-sink.mjs'));
        return {
          own: { script: LOCATION_MAIN, env: { ...ctx.serviceEnv.location, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, ...env }, spec },
          baseline: { script: LOCATION_MAIN, env: ctx.serviceEnv.location, spec },
          cleanup: async () => {
            stats = await fetch(`${sink.url}/stats`).then((r) => r.json()).catch(() => undefined);
            await sink.stop();
          },
        };
      },
      onResult: (row) => {
        const sent = stats ? `${stats.exports} OTLP exports, ${Math.round(stats.bytes / 1024)} KB received` : 'receiver stats unknown';
        const sampler = env.OTEL_TRACES_SAMPLER ? `${env.OTEL_TRACES_SAMPLER} ${env.OTEL_TRACES_SAMPLER_ARG}` : 'every request sampled';
        const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json' ? 'JSON' : 'protobuf';
        row.notes = [`${sampler}, OTLP/HTTP ${protocol} to a local receiver (${sent}); baseline: tracing off`, row.notes].filter(Boolean).join('; ');
      },
    };
  };
  return [
    {
      // No target: the cost of the service's middleware stack alone, next to the Nest floor.
      id: 'location-live',
      title: 'location GET /health/live (stack only)',
      service: 'location',
      floorGoal: true,
      prepare: async () => ({
        service: { path: '/health/live', expectBody: ['"status":"ok"'] },
        notes: 'no target; request observer (id, logs, metrics), security headers, terminus',
      }),
    },
    {
      id: 'lbs-cached',
      title: 'cached lbsQuery (lbsStat 2)',
      service: 'location',
      target: { ratio: 0.6 },
      floorGoal: true,
      prepare: async () => {
        // Tian'anmen, Beijing: asked once so that it is in the cache, then found there.
        const path = lbsPath(app, '116.397128', '39.916527');
        const before = new Set(await redis.keys());
        const first = await send(targets.location.url, { path });
        if (first.status !== 200) throw new Error(`first lbsQuery answered ${first.status}: ${first.text.slice(0, 200)}`);
        const added = (await redis.keys()).filter((k) => !before.has(k));
        if (added.length !== 1) throw new Error(`expected one new cache key under ${redis.prefix}, found ${added.length}`);
        return {
          service: { path, expectBody: ['"code":"000"', '"lbsStat":"2"', '110101'] },
          baseline: {
            script: join(benchDir, 'baselines/redis-get.mjs'),
            env: { BENCH_REDIS: JSON.stringify({ url: redis.url, key: added[0] }) },
            spec: { path, expectBody: ['110101'] },
          },
          notes: 'one key; the baseline GETs the key the service stored',
        };
      },
    },
    // Tracing (docs/operations.md): the cached lbsQuery on two instances of the service of
    // their own, measured in alternating rounds against a third with tracing unconfigured.
    {
      id: 'lbs-cached-tracing-off',
      title: 'cached lbsQuery, tracing off',
      service: 'location',
      // Untraced against untraced: the noise floor of the tracing rows' CPU cost.
      target: { cpuCost: 0.05, noiseFloor: true },
      prepare: async () => {
        const spec = await cachedSpec();
        return {
          own: { script: LOCATION_MAIN, env: { ...ctx.serviceEnv.location, OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, spec },
          baseline: { script: LOCATION_MAIN, env: ctx.serviceEnv.location, spec },
          notes: 'OTEL_TRACES_EXPORTER=none with an endpoint set; baseline: the same service, no OTEL_* set; no SDK loaded in either',
        };
      },
    },
    tracingOn('lbs-cached-tracing-on', 'cached lbsQuery, tracing on (every request)', 0.15, {}),
    tracingOn('lbs-cached-tracing-json', 'cached lbsQuery, tracing on (every request, OTLP/JSON)', 0.15, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    // What every request of the 10% row pays: tracing on, the request decided and left out.
    tracingOn('lbs-cached-tracing-unsampled', 'cached lbsQuery, tracing on (none sampled)', 0.05, { OTEL_TRACES_SAMPLER: 'parentbased_always_off', OTEL_TRACES_SAMPLER_ARG: '' }),
    tracingOn('lbs-cached-tracing-sampled', 'cached lbsQuery, tracing on (10% sampled)', 0.05, {
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    }),
    {
      id: 'lbs-miss',
      title: 'offline lbsQuery miss (cache off)',
      service: 'location',
      target: { ratio: 0.6 },
      floorGoal: true,
      prepare: async () => ({
        // An instance of its own without Redis and with a one-entry in-process cache, asked
        // points never asked before: every answer is computed by the offline geocoder.
        own: {
          script: join(root, 'apps/location/dist/main.js'),
          env: { ...ctx.serviceEnv.location, REDIS_URL: '', CACHE_MAX_ENTRIES: '1' },
          spec: { generator: uniquePoints(), expectBody: ['"code":"000"', '"lbsStat":"1"'] },
        },
        baseline: lookupBaseline(),
        notes: 'unique points, no Redis, 1-entry in-process cache; baseline: the same lookup in node:http',
      }),
    },
    {
      id: 'lbs-miss-redis',
      title: 'lbsQuery miss with Redis (unique keys)',
      service: 'location',
      floorGoal: true,
      prepare: async () => ({
        service: { generator: uniquePoints(), expectBody: ['"code":"000"', '"lbsStat":"1"'] },
        baseline: lookupBaseline(),
        notes: 'the production miss path: Redis GET (miss), lookup, Redis SET; no target, for reference',
      }),
    },
  ];
}
