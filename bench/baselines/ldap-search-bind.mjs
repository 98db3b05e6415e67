// Baseline of the domain login: node:http + the bare search-then-bind of the client library
// (ldapts, the account app's copy) against the same slapd, one connection per check as the
// service makes: bind as the service account, search the user (size limit 2), bind as it.
import { appImport } from '../lib/common.mjs';
import { sendJson, serve } from './serve.mjs';

const { Client } = await appImport('account', 'ldapts');
const d = JSON.parse(process.env.BENCH_LDAP);

serve(async (_req, res) => {
  const client = new Client({ url: d.url, timeout: 3000, connectTimeout: 3000 });
  try {
    await client.bind(d.bindDn, d.bindPassword);
    const { searchEntries } = await client.search(d.base, { scope: 'sub', filter: `(uid=${d.loginId})`, sizeLimit: 2, attributes: ['1.1'] });
    await client.bind(searchEntries[0].dn, d.password);
    sendJson(res, 200, { ok: true });
  } finally {
    await client.unbind().catch(() => undefined);
  }
});
