// Baseline of the domain login: node:http + the bare search-then-bind of the client library
// (ldapts, the account app's copy) against the same slapd, one connection per check as the
// service makes: bind as the service account, search the user (size limit 2), bind as it.
import { appImport } from '../lib/common.mjs';
import { sendJson, serve } from './serve.mjs';

const { Client } = await appImport('account', 'ldapts');
const d = JSON.parse(process.env.BENCH_LDAP);

serve(async (req, res) => {
  // /login: the one user; /login/<n>: the n-th further user
  const n = /^\/login\/(\d+)$/.exec(req.url ?? '')?.[1];
  const loginId = n === undefined ? d.loginId : `${d.loginId}-${n.padStart(3, '0')}`;
  const client = new Client({ url: d.url, timeout: 3000, connectTimeout: 3000 });
  try {
    await client.bind(d.bindDn, d.bindPassword);
    const { searchEntries } = await client.search(d.base, { scope: 'sub', filter: `(uid=${loginId})`, sizeLimit: 2, attributes: ['1.1'] });
    await client.bind(searchEntries[0].dn, d.password);
    sendJson(res, 200, { ok: true });
  } finally {
    await client.unbind().catch(() => undefined);
  }
});
