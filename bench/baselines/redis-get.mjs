// Baseline of the cached lbsQuery: node:http + the same Redis GET (ioredis, the location
// app's copy) of the key the service stored, answering the cached value.
import { appRequire } from '../lib/common.mjs';
import { queryOf, sendJson, serve } from './serve.mjs';

const mod = appRequire('location')('ioredis');
const Redis = mod.default ?? mod.Redis ?? mod;
const { url, key } = JSON.parse(process.env.BENCH_REDIS);
const redis = new Redis(url, { lazyConnect: true });
await redis.connect();

serve(async (req, res) => {
  const q = queryOf(req);
  if (!q.get('param.longitude') || !q.get('param.latitude')) return sendJson(res, 400, { code: '099' });
  const value = await redis.get(key);
  if (value === null) return sendJson(res, 404, { code: '099' });
  sendJson(res, 200, value);
});
