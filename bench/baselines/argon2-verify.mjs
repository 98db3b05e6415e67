// Baseline of the login: node:http + one argon2id verify (@node-rs/argon2, the account app's
// copy, on the same native thread pool) of the same hash and password per request.
import { appRequire } from '../lib/common.mjs';
import { sendJson, serve } from './serve.mjs';

const { verify } = appRequire('account')('@node-rs/argon2');
const { hash, password } = JSON.parse(process.env.BENCH_ARGON2);

serve(async (_req, res) => {
  const ok = await verify(hash, password);
  sendJson(res, ok ? 200 : 401, { ok });
});
