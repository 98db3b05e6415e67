// Compile-time tests of the SDK's types, run by `pnpm typecheck` (never executed): each
// `@ts-expect-error` line must stay an error, or the typecheck fails ("unused directive").
import { type AccountClient, type AccountResultCode, ADMIN_CODES, type AdminClient, type AdminCode, type AdminResultCode, ApiError, type LbsAnswer, type LbsClient, NetworkError } from './index';

export async function accountTypes(client: AccountClient): Promise<void> {
  await client.createAuth('A1', { auth_name: 'Orders', auth_state: '1', sub_auth_flag: '0' });
  // @ts-expect-error a misspelt field does not compile
  await client.createAuth('A1', { auth_nmae: 'Orders' });
  // @ts-expect-error nor an unknown one next to the right ones
  await client.createAuth('A1', { auth_name: 'Orders', auth_colour: 'red' });
  // @ts-expect-error nor a value outside the field's enumeration
  await client.createAuth('A1', { auth_name: 'Orders', auth_state: '7' });
  // A form's fields as they are (required ones are checked by the service: 400 90100).
  await client.registerUser('alice', {} as Record<string, string>);
  // @ts-expect-error the signing fields are the client's, not the caller's
  await client.listAuths({ signature: 'ab' });
  await client.listUsers({ page_number: '2', page_size: '10' }, { timeoutMs: 1000, signal: AbortSignal.timeout(5000) });

  const res = await client.getAuth('A1');
  if (res.body.response_code === '10301') return; // a code getAuth answers
  // @ts-expect-error a result code getAuth never answers does not compile
  if (res.body.response_code === '99999') return;
  // @ts-expect-error nor one of another operation
  if (res.body.response_code === '10201') return;
  // Without an operation: the codes of every account operation, each status's.
  const anyAccountCode: AccountResultCode = '10301';
  // @ts-expect-error still none the account operations never answer
  const noAccountCode: AccountResultCode = '30101';
  void [anyAccountCode, noAccountCode];
  const auth = res.ok();
  const name: string = auth.auth_name;
  // @ts-expect-error an answer field that does not exist
  void auth.auth_nmae;
  const users = (await client.listUsers()).ok();
  const first: string | undefined = users.user_list[0]?.user_login_id;
  const held = (await client.userHasAuth('alice', 'A1')).ok();
  const has: '0' | '1' = held.has_auth;
  void [name, first, has];
}

export async function lbsTypes(lbs: LbsClient): Promise<void> {
  const place = (await lbs.lbsQuery({ longitude: '116.397', latitude: '39.909', merId: 'M1' })).ok();
  const code: string = place.standardCode;
  // @ts-expect-error a misspelt parameter does not compile
  await lbs.lbsQuery({ longitude: '116.397', latitud: '39.909' });
  const found = (await lbs.addressQuery({ city: '北京市', address: '长安街1号' })).ok();
  // @ts-expect-error a success is never code 099
  if (found.code === '099') return;
  // @ts-expect-error nor an lbsStat a success never has
  if (found.lbsStat === '0') return;
  const answer = (await lbs.baseStationQuery({ mcc: '460', mnc: '0', lac: '1', cellid: '2' })).body as LbsAnswer<'baseStationQuery'>;
  // @ts-expect-error a code the location service never answers
  if (answer.code === '200') return;
  void code;
}

export async function adminTypes(admin: AdminClient): Promise<void> {
  const app = (await admin.createApp({ app_name: 'Shop', aes_mode: 'ecb' })).ok();
  const secret: string = app.credential.secret;
  const mode: 'gcm' | 'ecb' = app.aes_mode;
  // @ts-expect-error a misspelt field of createApp does not compile
  await admin.createApp({ app_nmae: 'Shop' });
  // @ts-expect-error nor an AES mode the service does not have
  await admin.createApp({ app_name: 'Shop', aes_mode: 'cbc' });
  // @ts-expect-error nor an app without its name
  await admin.createApp({ aes_mode: 'gcm' });
  await admin.createOperator({ login: 'ops', role: 'app_admin', apps: [app.app_token], password: 'a long password' });
  // @ts-expect-error a misspelt field of createOperator does not compile
  await admin.createOperator({ login: 'ops', role: 'auditor', pasword: 'a long password' });
  // @ts-expect-error nor a role that does not exist
  await admin.createOperator({ login: 'ops', role: 'root' });
  // @ts-expect-error nor a state an operator cannot have
  await admin.modifyOperator('ops', { state: 'locked' });
  // @ts-expect-error nor an audit action the service never records
  await admin.auditEvents({ action: 'delete' });

  const res = await admin.revokeCredential(app.app_token, app.credential.credential_id);
  const code: AdminResultCode<'revokeCredential'> = res.body.response_code as AdminResultCode<'revokeCredential'>;
  if (code === ADMIN_CODES.NO_SUCH_CREDENTIAL) return; // a code revokeCredential answers
  const anyAdminCode: AdminResultCode = '30402'; // without an operation: any admin operation's codes
  void anyAdminCode;
  // @ts-expect-error a code revokeCredential never answers does not compile
  if (code === '30120') return;
  // @ts-expect-error nor one no admin operation answers
  const unknown: AdminResultCode = '99999';
  // ADMIN_CODES lists every code an admin operation answers, and only those.
  const listed: [AdminResultCode] extends [AdminCode] ? ([AdminCode] extends [AdminResultCode] ? true : never) : never = true;
  // @ts-expect-error nor a name ADMIN_CODES does not have
  void ADMIN_CODES.NO_SUCH_THING;
  const operators = (await admin.listOperators()).ok();
  // @ts-expect-error an operator field that does not exist
  void operators.operator_list[0]?.password;
  void [secret, mode, unknown, listed];
}

export function errorTypes(err: unknown): string {
  if (err instanceof NetworkError) return `${err.url} ${err.code ?? ''}`;
  if (err instanceof ApiError) return `${err.status} ${err.code}`;
  return '';
}
