// Baseline of the account reads: node:http + the pg driver running the same SQL the service
// runs, on a pool of the same size, answering the rows as JSON. Configured by BENCH_PG:
// { url, pool, transaction?, statements: [{ sql, params }], answer: 'rows' | 'first' }, where a
// param { path: n } is the n-th segment of the request path (0-based, decoded).
import { appRequire } from '../lib/common.mjs';
import { sendJson, serve } from './serve.mjs';

const pg = appRequire('account')('pg');
const cfg = JSON.parse(process.env.BENCH_PG);
const pool = new pg.Pool({ connectionString: cfg.url, max: cfg.pool ?? 10 });

function paramsOf(params, segments) {
  return params.map((p) => (p !== null && typeof p === 'object' && !Array.isArray(p) ? decodeURIComponent(segments[p.path]) : p));
}

async function run(client, segments) {
  let rows = [];
  for (const st of cfg.statements) rows = (await client.query(st.sql, paramsOf(st.params ?? [], segments))).rows;
  return rows;
}

serve(async (req, res) => {
  const q = req.url.indexOf('?');
  const segments = (q < 0 ? req.url : req.url.slice(0, q)).split('/').filter(Boolean);
  let rows;
  if (cfg.transaction || cfg.statements.length > 1) {
    const client = await pool.connect();
    try {
      if (cfg.transaction) await client.query(`BEGIN ISOLATION LEVEL ${cfg.transaction}`);
      rows = await run(client, segments);
      if (cfg.transaction) await client.query('COMMIT');
    } catch (err) {
      if (cfg.transaction) await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  } else {
    rows = await run(pool, segments);
  }
  if (cfg.answer === 'first') return rows.length ? sendJson(res, 200, rows[0]) : sendJson(res, 404, { found: false });
  sendJson(res, 200, { count: String(rows.length), list: rows });
});
