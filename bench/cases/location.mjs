// Location cases: lbsQuery served from the Redis cache, and lbsQuery on the offline
// geocoder's miss path (coordinates never asked before, so every request is computed).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { benchDir, root } from '../lib/common.mjs';
import { send } from '../lib/preflight.mjs';

const require = createRequire(import.meta.url);
const { lbsSignedNames, signLbs } = require(join(root, 'libs/signing/dist/lbs-signature.js'));
const { hmacKey } = require(join(root, 'libs/signing/dist/hmac.js'));

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
  return `/lbsapi/api/lbsQuery?param.longitude=${longitude}&param.latitude=${latitude}&userToken=${app.appToken}&signature=${signature}`;
}

export function locationCases(ctx) {
  const { app, targets, redis } = ctx;
  return [
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
          notes: 'one key; baseline GETs the key the service stored',
        };
      },
    },
  ];
}
