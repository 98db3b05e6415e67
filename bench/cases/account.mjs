// Account cases: GET /users/{id}, login, GET /auths of 10,000 auths, GET /users page 500 at
// 1,000,000 users; data seeded by SQL (generate_series), never through the API.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appRequire, benchDir, root } from '../lib/common.mjs';
import { benchDomainUser } from '../lib/slapd.mjs';

const require = createRequire(import.meta.url);
const { signAccount } = require(join(root, 'libs/signing/dist/account-signature.js'));
const { rfc3986 } = require(join(root, 'libs/signing/dist/portable/canonical.js'));
const { hmacKey } = require(join(root, 'libs/signing/dist/hmac.js'));
const { deriveAesKey, encryptPassword } = require(join(root, 'libs/signing/dist/login-crypto.js'));

const PREFIX = '/account/v1.0.1';
const LOGIN_ID = 'bench-login';
const LOGIN_PASSWORD = 'Bench-P@ssw0rd!';
/** The service's argon2id defaults (ARGON2_* in apps/account/src/config/account.config.ts). */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
const POOL_SIZE = 10;
const OK = '"response_code":"90000"';

export function accountEnv(ctx) {
  // The control plane's bootstrap token (docs/admin-api.md): the two-secrets case creates its app with it.
  ctx.adminToken ??= randomBytes(24).toString('hex');
  return {
    ADMIN_TOKEN: ctx.adminToken,
    DATABASE_URL: ctx.db.url,
    DATABASE_AUTO_MIGRATE: 'true',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    // Requests are signed once, with the timestamp of the run's start.
    SIGNATURE_MAX_SKEW_SECONDS: '86400',
    ARGON2_MEMORY_KIB: String(ARGON2.memoryCost),
    ARGON2_TIME_COST: String(ARGON2.timeCost),
    ARGON2_PARALLELISM: String(ARGON2.parallelism),
    // The login cases measure throughput: no per-app login budget in the way.
    LOGIN_RATE_LIMIT_PER_MINUTE: '0',
    ...(ctx.slapd
      ? {
          LDAP_URL: ctx.slapd.url,
          LDAP_BIND_DN: ctx.slapd.bindDn,
          LDAP_BIND_PASSWORD: ctx.slapd.bindPassword,
          LDAP_USER_BASE_DN: ctx.slapd.base,
        }
      : {}),
  };
}

export const loginId = (n) => `u${String(n).padStart(7, '0')}`;

/** Signs one account request to `path` (docs/contract.md §2); returns the query string (GET) or form body. */
export function signedQuery(app, method, path, params, pathIds = {}, timestamp = Math.floor(Date.now() / 1000)) {
  const sent = { ...params, timestamp: String(timestamp) };
  const signature = signAccount(hmacKey(app.secret), method, app.appToken, path, { ...sent, ...pathIds });
  return Object.entries({ ...sent, app_token: app.appToken, signature })
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .join('&');
}

/**
 * Seeds the run's database after the service has migrated it: 10,000 auths and 1,000,000
 * users of the bench app (BENCH_AUTHS / BENCH_USERS), plus one user with an argon2id hash
 * of the service's parameters for the login case.
 */
export async function seedAccount(ctx) {
  ctx.seedErrors = {};
  for (const [part, seed] of [
    ['auths', seedAuths],
    ['users', seedUsers],
  ]) {
    try {
      await seed(ctx);
    } catch (err) {
      ctx.seedErrors[part] = err.message;
      ctx.say(`  seeding ${part} failed: ${err.message}`);
    }
  }
}

async function seedAuths(ctx) {
  const { db, app, s, say } = ctx;
  const t0 = performance.now();
  await db.query(
    `INSERT INTO auths (app_token, auth_id, auth_name, auth_desc, auth_state, auth_type, auth_level, parent_auth_id, sub_auth_flag)
     SELECT $1, 'A' || lpad(g::text, 6, '0'), 'Auth ' || g, 'seeded by the bench', (g % 2)::text, 'menu', (g % 10)::text,
            CASE WHEN g > 100 THEN 'A' || lpad((g % 100 + 1)::text, 6, '0') END, CASE WHEN g <= 100 THEN '1' ELSE '0' END
       FROM generate_series(1, $2::int) AS g`,
    [app.appToken, s.auths],
  );
  await db.query('VACUUM ANALYZE auths');
  say(`  seeded ${s.auths.toLocaleString('en-US')} auths (${Math.round(performance.now() - t0)} ms)`);
}

async function seedUsers(ctx) {
  const { db, app, s, say } = ctx;
  const t1 = performance.now();
  // Where users carry their page positions (migration UserOrdinals1767226200000), the seed
  // writes the numbers the registration trigger would (user g is the app's g-th and the
  // ceil(g / 100)-th of org g mod 100) instead of running the trigger a million times.
  const numbered = await hasColumn(db, 'users', 'app_ord');
  if (numbered) await db.query('SET session_replication_role = replica');
  await db.query(
    `INSERT INTO users (app_token, user_login_id, user_id, org_id, user_name, user_short_name, user_type, is_domain_user,
                        cert_type, cert_id, user_mobile, user_auths, user_extends${numbered ? ', app_ord, org_ord' : ''})
     SELECT $1, 'u' || lpad(g::text, 7, '0'), lpad(to_hex(g), 16, '0'), 'ORG' || (g % 100), 'User ' || g, 'U' || g,
            CASE WHEN g % 3 = 0 THEN 'B' ELSE 'C' END, '0', '00', '1101011990' || lpad(g::text, 8, '0'),
            '138' || lpad(g::text, 8, '0'), 'A000001,A000002', '{"tier":' || (g % 5) || '}'${numbered ? ', g, (g + 99) / 100' : ''}
       FROM generate_series(1, $2::int) AS g`,
    [app.appToken, s.users],
  );
  if (numbered) {
    await db.query('SET session_replication_role = DEFAULT');
    await db.query(
      `INSERT INTO user_counts (app_token, total) VALUES ($1, $2) ON CONFLICT (app_token) DO UPDATE SET total = EXCLUDED.total`,
      [app.appToken, s.users],
    );
    await db.query(
      `INSERT INTO user_org_counts (app_token, org_id, total)
       SELECT $1::varchar, org_id, count(*) FROM users WHERE app_token = $1::varchar GROUP BY org_id`,
      [app.appToken],
    );
  }
  // The login and domain users after them, numbered by the service's own trigger.
  const { hash } = appRequire('account')('@node-rs/argon2');
  const pwdHash = await hash(LOGIN_PASSWORD, ARGON2);
  await db.query(
    `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, is_domain_user, user_pwd_hash)
     VALUES ($1, $2, 'ffffffffffffffff', 'Bench Login', 'C', '0', $3)`,
    [app.appToken, LOGIN_ID, pwdHash],
  );
  ctx.loginHash = pwdHash;
  ctx.seededUsers = s.users + 1;
  if (ctx.slapd) {
    const ids = [ctx.slapd.loginId, ...Array.from({ length: ctx.slapd.users }, (_, n) => benchDomainUser(n))];
    await db.query(
      `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, is_domain_user)
       SELECT $1, id, 'e' || lpad(to_hex(n::int), 15, '0'), 'Bench Domain', 'C', '1' FROM unnest($2::text[]) WITH ORDINALITY AS t (id, n)`,
      [app.appToken, ids],
    );
    ctx.seededUsers += ids.length;
  }
  if (!numbered) await syncUserCounts(db, app.appToken);
  await db.query('VACUUM ANALYZE users');
  say(`  seeded ${s.users.toLocaleString('en-US')} users (${Math.round(performance.now() - t1)} ms, incl. VACUUM ANALYZE)`);
}

async function hasColumn(db, table, column) {
  const { rows } = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = $2`, [table, column]);
  return rows.length > 0;
}

/** Before the page positions: the statement triggers did not run for the seed; the app's counter row set from the rows. */
async function syncUserCounts(db, appToken) {
  await db.query(
    `INSERT INTO user_counts (app_token, total) SELECT $1::varchar, count(*) FROM users WHERE app_token = $1::varchar
     ON CONFLICT (app_token) DO UPDATE SET total = EXCLUDED.total`,
    [appToken],
  );
}

function pgBaseline(ctx, statements, answer, extra = {}) {
  return {
    script: join(benchDir, 'baselines/pg-query.mjs'),
    env: { BENCH_PG: JSON.stringify({ url: ctx.db.url, pool: POOL_SIZE, statements, answer, ...extra }) },
  };
}

export function accountCases(ctx) {
  const { app, s } = ctx;
  const ts = Math.floor(Date.now() / 1000);
  const seeded = (c) => ({
    ...c,
    prepare: async () => {
      const problem = ctx.seedErrors?.[c.needs];
      if (problem) throw new Error(`seeding ${c.needs} failed: ${problem}`);
      return c.prepare();
    },
  });

  /** A signed domain login of `id` with the bench directory's password. */
  const domainLogin = (id) => {
    const encrypted = encryptPassword(ctx.slapd.password, deriveAesKey(app.aesKey), app.aesMode);
    return {
      path: `${PREFIX}/users/login/${id}`,
      body: signedQuery(app, 'POST', `${PREFIX}/users/login/${id}`, { user_pwd_encrypt: encrypted }, { user_login_id: id }, ts),
    };
  };

  return [
    {
      // No target: the cost of the service's middleware stack alone, next to the Nest floor.
      id: 'account-live',
      title: 'account GET /health/live (stack only)',
      service: 'account',
      floorGoal: true,
      prepare: async () => ({
        service: { path: '/health/live', expectBody: ['"status":"ok"'] },
        notes: 'no target; request observer (id, logs, metrics), security headers, terminus',
      }),
    },
    {
      id: 'users-get',
      needs: 'users',
      title: 'GET /users/{id}',
      service: 'account',
      target: { ratio: 0.6 }, // the read path at the floor (docs/performance.md)
      floorGoal: true,
      prepare: async () => {
        // 1,000 users spread over the whole table, one at random per request.
        const ids = Array.from({ length: 1000 }, (_, i) => loginId(1 + Math.floor((i * s.users) / 1000)));
        const paths = ids.map(
          (id) => `${PREFIX}/users/${id}?${signedQuery(app, 'GET', `${PREFIX}/users/${id}`, {}, { user_login_id: id }, ts)}`,
        );
        return {
          service: {
            generator: { kind: 'random-path', paths },
            expectBody: [OK, '"user_login_id":"u'],
            check: (b) => (b.user_login_id === ids[0] || ids.includes(b.user_login_id) ? undefined : 'wrong user'),
          },
          baseline: {
            ...pgBaseline(
              ctx,
              [{ sql: 'SELECT * FROM users WHERE app_token = $1 AND user_login_id = $2', params: [app.appToken, { path: 3 }] }],
              'first',
            ),
            spec: { generator: { kind: 'random-path', paths }, expectBody: ['"user_login_id":"u'] },
          },
          notes: `1,000 ids at random of ${s.users.toLocaleString('en-US')} users`,
        };
      },
    },
    {
      id: 'auths-get',
      needs: 'auths',
      title: 'GET /auths/{id}',
      service: 'account',
      prepare: async () => {
        // 1,000 auths spread over the seeded ones, one at random per request.
        const ids = Array.from({ length: 1000 }, (_, i) => `A${String(1 + Math.floor((i * s.auths) / 1000)).padStart(6, '0')}`);
        const paths = ids.map((id) => `${PREFIX}/auths/${id}?${signedQuery(app, 'GET', `${PREFIX}/auths/${id}`, {}, { auth_id: id }, ts)}`);
        return {
          service: { generator: { kind: 'random-path', paths }, expectBody: [OK, '"auth_id":"A'] },
          baseline: {
            ...pgBaseline(
              ctx,
              [{ sql: 'SELECT * FROM auths WHERE app_token = $1 AND auth_id = $2', params: [app.appToken, { path: 3 }] }],
              'first',
            ),
            spec: { generator: { kind: 'random-path', paths }, expectBody: ['"auth_id":"A'] },
          },
          notes: `no target; 1,000 ids at random of ${s.auths.toLocaleString('en-US')} auths`,
        };
      },
    },
    {
      id: 'permissions-effective',
      needs: 'users',
      title: 'GET /users/{id}/auths (effective permissions)',
      service: 'account',
      prepare: async () => {
        // Seeded users hold A000001 and A000002 directly, no group.
        const ids = Array.from({ length: 1000 }, (_, i) => loginId(1 + Math.floor((i * s.users) / 1000)));
        const paths = ids.map(
          (id) => `${PREFIX}/users/${id}/auths?${signedQuery(app, 'GET', `${PREFIX}/users/${id}/auths`, {}, { user_login_id: id }, ts)}`,
        );
        return {
          service: { generator: { kind: 'random-path', paths }, expectBody: [OK, '"count":"'] },
          baseline: {
            ...pgBaseline(
              ctx,
              [
                {
                  sql: 'SELECT user_auths, user_auth_groups FROM users WHERE app_token = $1 AND user_login_id = $2',
                  params: [app.appToken, { path: 3 }],
                },
                { sql: 'SELECT * FROM auths WHERE app_token = $1 AND auth_id = ANY($2)', params: [app.appToken, ['A000001', 'A000002']] },
              ],
              'rows',
            ),
            spec: { generator: { kind: 'random-path', paths }, expectBody: ['"count":"2"'] },
          },
          notes: "no target; the user's grants, then its auths: two statements on each side",
        };
      },
    },
    {
      // docs/contract.md §14: a control-plane app with two active credentials; the request is
      // signed with the one tried last. Baseline: the same build as a second instance, the
      // same read signed by an APP_CREDENTIALS app (one secret).
      id: 'signature-two-secrets',
      title: 'signature checked against two active secrets',
      service: 'account',
      prepare: async () => {
        const url = ctx.targets.account.url;
        const admin = (method, path, body) =>
          fetch(`${url}/admin/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }).then((r) => r.json());
        const created = await admin('POST', '/apps', { app_name: 'bench two secrets' });
        const second = await admin('POST', `/apps/${created.app_token}/credentials`, {});
        if (!second.secret) throw new Error(`second credential: ${JSON.stringify(second)}`);
        const two = { appToken: created.app_token, secret: second.secret };
        const authPath = `${PREFIX}/auths/BENCH2`;
        for (const a of [app, two]) {
          const res = await fetch(`${url}${authPath}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: signedQuery(a, 'POST', authPath, { auth_name: 'two secrets' }, { auth_id: 'BENCH2' }, ts),
          });
          if (res.status !== 201 && res.status !== 409) throw new Error(`seed auth: ${res.status} ${await res.text()}`);
        }
        const get = (a) => `${authPath}?${signedQuery(a, 'GET', authPath, {}, { auth_id: 'BENCH2' }, ts)}`;
        return {
          service: { path: get(two), expectBody: [OK, '"auth_id":"BENCH2"'] },
          baseline: {
            script: join(root, 'apps/account/dist/main.js'),
            env: ctx.serviceEnv.account,
            spec: { path: get(app), expectBody: [OK, '"auth_id":"BENCH2"'] },
          },
          notes:
            'GET /auths/{id}; the second of two active secrets vs one secret (baseline: a second account instance, an APP_CREDENTIALS app)',
        };
      },
    },
    {
      id: 'login',
      needs: 'users',
      title: 'login (argon2id 19 MiB, t=2)',
      service: 'account',
      target: { ratio: 0.9 },
      prepare: async () => {
        const encrypted = encryptPassword(LOGIN_PASSWORD, deriveAesKey(app.aesKey), app.aesMode);
        const body = signedQuery(
          app,
          'POST',
          `${PREFIX}/users/login/${LOGIN_ID}`,
          { user_pwd_encrypt: encrypted },
          { user_login_id: LOGIN_ID },
          ts,
        );
        return {
          service: {
            method: 'POST',
            path: `${PREFIX}/users/login/${LOGIN_ID}`,
            body,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            expectBody: [OK, `"user_login_id":"${LOGIN_ID}"`],
            timeoutSeconds: 60,
          },
          baseline: {
            script: join(benchDir, 'baselines/argon2-verify.mjs'),
            env: { BENCH_ARGON2: JSON.stringify({ hash: ctx.loginHash, password: LOGIN_PASSWORD }) },
            spec: { path: '/login', expectBody: ['"ok":true'], timeoutSeconds: 60 },
          },
          notes: `one user, same password each time (a success path); UV_THREADPOOL_SIZE default on both sides`,
        };
      },
    },
    {
      // docs/contract.md §13: wrong-password logins of an ordinary id, a domain id and an unknown
      // id take comparable time (the same argon2 verification on each path), with the bench's
      // directory when it runs (BENCH_CASES=login-timing,domain-login) and without it otherwise.
      id: 'login-timing',
      needs: 'users',
      title: 'wrong-password login medians: ordinary | domain | unknown id',
      service: 'account',
      prepare: async () => {
        const rounds = Number(process.env.BENCH_TIMING_ROUNDS ?? 30);
        const id = (kind, n) => `bench-timing-${kind}-${n}`;
        const numbers = Array.from({ length: rounds }, (_, n) => n);
        await ctx.db.query(
          `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, is_domain_user, user_pwd_hash)
           SELECT $1, 'bench-timing-' || kind || '-' || n, 'd' || lpad(to_hex(n + CASE kind WHEN 'ordinary' THEN 0 ELSE 4096 END), 15, '0'),
                  'Bench Timing', 'C', CASE kind WHEN 'domain' THEN '1' ELSE '0' END, CASE kind WHEN 'domain' THEN NULL ELSE $2 END
           FROM unnest($3::int[]) AS n, unnest(ARRAY['ordinary', 'domain']) AS kind
           ON CONFLICT DO NOTHING`,
          [app.appToken, ctx.loginHash, numbers],
        );
        const wrong = encryptPassword('not-the-password', deriveAesKey(app.aesKey), app.aesMode);
        const login = async (url, loginId) => {
          const path = `${PREFIX}/users/login/${encodeURIComponent(loginId)}`;
          const body = signedQuery(app, 'POST', path, { user_pwd_encrypt: wrong }, { user_login_id: loginId });
          const t = performance.now();
          const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
          const answer = await res.json();
          if (answer.response_code !== '20441') throw new Error(`${loginId}: ${res.status} ${JSON.stringify(answer)}`);
          return performance.now() - t;
        };
        const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        return {
          custom: async (url) => {
            const ms = { ordinary: [], domain: [], unknown: [] };
            // One attempt per id (no lockout in the way), the three kinds interleaved.
            for (const n of numbers) for (const kind of Object.keys(ms)) ms[kind].push(await login(url, id(kind, n)));
            const m = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
            const spread = Math.max(...Object.values(m)) / Math.min(...Object.values(m));
            const value = `${m.ordinary.toFixed(1)} | ${m.domain.toFixed(1)} | ${m.unknown.toFixed(1)} ms`;
            return {
              value,
              timing: m,
              notes: `medians of ${rounds} sequential wrong-password logins each, ${ctx.slapd ? 'with' : 'without'} a directory; max/min ${spread.toFixed(2)}`,
            };
          },
        };
      },
    },
    {
      id: 'domain-login',
      needs: 'users',
      title: 'domain login (search-then-bind, OpenLDAP, 100 users)',
      service: 'account',
      target: { ratio: 0.8 },
      prepare: async () => {
        if (!ctx.slapd) throw new Error(`no directory: ${ctx.slapdError ?? 'slapd not started'}`);
        const requests = Array.from({ length: ctx.slapd.users }, (_, n) => domainLogin(benchDomainUser(n)));
        return {
          service: {
            method: 'POST',
            path: requests[0].path,
            body: requests[0].body,
            generator: { kind: 'random-request', requests },
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            expectBody: [OK, '"is_domain_user":"1"'],
            timeoutSeconds: 30,
          },
          baseline: {
            script: join(benchDir, 'baselines/ldap-search-bind.mjs'),
            env: { BENCH_LDAP: JSON.stringify(ctx.slapd) },
            spec: {
              path: '/login/0',
              generator: { kind: 'random-path', paths: Array.from({ length: ctx.slapd.users }, (_, n) => `/login/${n}`) },
              expectBody: ['"ok":true'],
              timeoutSeconds: 30,
            },
          },
          notes: `${ctx.slapd.users} users at random, right password; baseline: ldapts bind, search, bind on a new connection per check, same slapd`,
        };
      },
    },
    {
      id: 'domain-login-one',
      needs: 'users',
      title: 'domain login (one user)',
      service: 'account',
      prepare: async () => {
        if (!ctx.slapd) throw new Error(`no directory: ${ctx.slapdError ?? 'slapd not started'}`);
        const { path, body } = domainLogin(ctx.slapd.loginId);
        return {
          service: {
            method: 'POST',
            path,
            body,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            expectBody: [OK, '"is_domain_user":"1"'],
            timeoutSeconds: 30,
          },
          baseline: {
            script: join(benchDir, 'baselines/ldap-search-bind.mjs'),
            env: { BENCH_LDAP: JSON.stringify(ctx.slapd) },
            spec: { path: '/login', expectBody: ['"ok":true'], timeoutSeconds: 30 },
          },
          notes: 'no target: the attempts of one login id take turns (5 at a time, the lockout limit)',
        };
      },
    },
    {
      id: 'auths-list',
      needs: 'auths',
      title: `GET /auths (${s.auths.toLocaleString('en-US')} auths)`,
      service: 'account',
      target: { timeFactor: 2 },
      // Answers of about 3 MB: fewer connections, or every answer waits behind 49 others.
      connections: Math.min(s.connections, 10),
      prepare: async () => {
        const path = `${PREFIX}/auths?${signedQuery(app, 'GET', `${PREFIX}/auths`, {}, {}, ts)}`;
        const count = `"count":"${s.auths}"`;
        return {
          service: {
            path,
            expectBody: [OK, count],
            timeoutSeconds: 60,
            check: (b) => (b.list?.length === s.auths ? undefined : `list of ${b.list?.length}`),
          },
          baseline: {
            ...pgBaseline(
              ctx,
              [{ sql: 'SELECT * FROM auths WHERE app_token = $1 ORDER BY auth_seq_id ASC', params: [app.appToken] }],
              'rows',
            ),
            spec: { path: '/auths', expectBody: [count], timeoutSeconds: 60 },
          },
          notes: 'baseline: the same SELECT by the pg driver, rows as JSON',
        };
      },
    },
    {
      id: 'users-page',
      needs: 'users',
      title: `GET /users page 500 x 20 (${s.users.toLocaleString('en-US')} users)`,
      service: 'account',
      target: { p99Ms: 50 },
      // A latency target: at -c 50 on a small machine the answer waits in the queue (even the
      // bare SQL's p99 exceeds 50 ms there), so the page is asked by 10 connections.
      connections: Math.min(s.connections, 10),
      prepare: async () => {
        const query = { page_number: '500', page_size: '20' };
        const path = `${PREFIX}/users?${signedQuery(app, 'GET', `${PREFIX}/users`, query, {}, ts)}`;
        const first = loginId(9981);
        return {
          service: {
            path,
            expectBody: [OK, `"user_login_id":"${first}"`],
            check: (b) =>
              b.user_list?.length === 20 && b.list?.length === 20 && Number(b.count) === ctx.seededUsers
                ? undefined
                : `count ${b.count}, ${b.list?.length} items`,
          },
          baseline: {
            ...pgBaseline(
              ctx,
              [
                {
                  sql: 'SELECT * FROM users WHERE app_token = $1 AND app_ord > 9980 AND app_ord <= 10000 ORDER BY app_ord',
                  params: [app.appToken],
                },
              ],
              'rows',
            ),
            spec: { path: '/users', expectBody: [`"user_login_id":"${first}"`] },
          },
          notes: 'baseline: one indexed SELECT of the page by position (app_ord 9981-10000) by the pg driver',
        };
      },
    },
  ].map(seeded);
}
