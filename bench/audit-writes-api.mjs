#!/usr/bin/env node
// `pnpm bench:audit-writes` (second part): what the audit trail and the personal-data
// encryption cost a user write through the API. Two compiled account services side by side, on
// databases of their own: "with" as it ships, "without" the same build preloaded with
// bench/lib/without-trail.cjs (no audit event in the write's statement, personal data stored as
// sent). Signed requests through the SDK at WRITES_CONNECTIONS (10), alternating rounds; each
// side's database is checked afterwards (events and ciphertext on one side, neither on the
// other). Prints writes/s per side and the ratio. Never fails on timing.
import { join } from 'node:path';
import { benchDir } from './lib/common.mjs';
import { accountClientClass, accountService, pg, scratchDatabase } from './lib/scale.mjs';

const ROUNDS = Number(process.env.WRITES_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.WRITES_PER_ROUND ?? 1500);
const CONNECTIONS = Number(process.env.WRITES_CONNECTIONS ?? 10);
const app = { appToken: 'app-a0d1f0e5', secret: 'audit-writes-api-secret-01', aesKey: 'audit-writes', aesMode: 'gcm' };
// Cheap hashes on both sides: the database's share of a registration is as large as it gets.
const env = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', SIGNATURE_MAX_SKEW_SECONDS: '86400' };
const AccountClient = await accountClientClass();

const sides = {};
for (const [name, nodeArgs] of [
  ['with', []],
  ['without', ['--require', join(benchDir, 'lib/without-trail.cjs')]],
]) {
  const database = await scratchDatabase(`bench_writes_${name}`);
  const service = await accountService(database.url, app, { env, nodeArgs });
  await service.start();
  sides[name] = { database, service, client: new AccountClient({ baseUrl: service.baseUrl, ...app, retries: 0 }) };
}

const mobile = (i) => `139${String(i).padStart(8, '0')}`;
const certId = (i) => `11010119900101${String(i % 10000).padStart(4, '0')}`;
const cases = {
  register: (client, round, i) =>
    client.registerUser(`w${round}-${i}`, { user_name: 'Writer', user_type: 'C', user_pwd: 'Bench-P@ss1', org_id: `ORG${i % 50}`, cert_id: certId(i), user_mobile: mobile(i) }),
  // The users registered by the first round of `register`, each given new personal data.
  modify: (client, round, i) => client.modifyUser(`w0-${i % PER_ROUND}`, { cert_id: certId(i + round), user_mobile: mobile(i + round) }),
};
const expected = { register: 201, modify: 201 };

const rows = [];
try {
  for (const [name, write] of Object.entries(cases)) {
    const rates = { with: [], without: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 ? ['without', 'with'] : ['with', 'without']) {
        const { client } = sides[side];
        let next = 0;
        const t = performance.now();
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (next < PER_ROUND) {
              const i = next++;
              const res = await write(client, round, i);
              if (res.status !== expected[name]) throw new Error(`${name} (${side}): HTTP ${res.status} ${JSON.stringify(res.body)}`);
            }
          }),
        );
        rates[side].push(PER_ROUND / ((performance.now() - t) / 1000));
      }
    }
    const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const w = median(rates.with);
    const wo = median(rates.without);
    rows.push({
      write: name,
      'with (writes/s)': w.toFixed(0),
      'without (writes/s)': wo.toFixed(0),
      ratio: (w / wo).toFixed(2),
      'rounds with': rates.with.map((r) => r.toFixed(0)).join(' '),
      'rounds without': rates.without.map((r) => r.toFixed(0)).join(' '),
    });
  }

  // Each side did what it says: events and ciphertext with the trail, neither without.
  for (const [name, { database }] of Object.entries(sides)) {
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const [{ events }] = (await db.query(`SELECT count(*)::int AS events FROM audit_events WHERE resource_type = 'user'`)).rows;
    const [{ plain }] = (await db.query(`SELECT count(*)::int AS plain FROM users WHERE user_mobile LIKE '139%'`)).rows;
    await db.end();
    const ok = name === 'with' ? events > 0 && plain === 0 : events === 0 && plain > 0;
    if (!ok) throw new Error(`${name}: ${events} user events, ${plain} plaintext mobiles: the sides are not what they claim`);
    console.log(`${name}: ${events.toLocaleString('en-US')} user events, ${plain.toLocaleString('en-US')} plaintext mobile numbers`);
  }
} finally {
  for (const { service, database } of Object.values(sides)) {
    await service.stop();
    await database.drop();
  }
}

console.log(
  `\nuser writes through the API, with vs without the audit event and the encryption; ${CONNECTIONS} connections, ` +
    `${ROUNDS} alternating rounds of ${PER_ROUND}, medians; argon2id at 1 MiB / 1 pass on both sides`,
);
console.table(rows);
