/**
 * The request and answer types of both services, derived from the types `pnpm client-types`
 * generates from the OpenAPI documents (`./generated/*.ts`): no hand-written copy to keep in
 * sync. A field the document does not name, an enumeration value it does not list, or a result
 * code no answer of the operation carries does not compile.
 */
import type { components as AccountComponents, operations as AccountOperations } from './generated/account';
import type { operations as LocationOperations } from './generated/location';

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never;

/** Every answer body an operation can have, whatever its status. */
export type AnswerOf<Op> = { [S in keyof ResponsesOf<Op>]: JsonOf<ResponsesOf<Op>[S]> }[keyof ResponsesOf<Op>];
/** The answer body of a success (HTTP 200 or 201). */
export type SuccessOf<Op> =
  | (200 extends keyof ResponsesOf<Op> ? JsonOf<ResponsesOf<Op>[200]> : never)
  | (201 extends keyof ResponsesOf<Op> ? JsonOf<ResponsesOf<Op>[201]> : never);

/** The values the client supplies itself: the signing fields and the path ids. */
type ClientSupplied = 'app_token' | 'timestamp' | 'nonce' | 'signature' | 'auth_id' | 'group_id' | 'user_login_id';

type BodyOf<Op> = Op extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The account operations of the SDK (the document's operation ids). */
export type AccountOperationName =
  | 'createAuth'
  | 'modifyAuth'
  | 'listAuths'
  | 'getAuth'
  | 'createGroup'
  | 'modifyGroup'
  | 'listGroups'
  | 'getGroup'
  | 'registerUser'
  | 'modifyUser'
  | 'listUsers'
  | 'getUser'
  | 'login'
  | 'userAuths'
  | 'userHasAuth'
  | 'auditEvents';

type AccountOp<N extends AccountOperationName> = AccountOperations[N];

/**
 * The fields a caller sends to an account operation: its body (writes) or query (reads),
 * without the signature's and the path ids. Every field is optional here, so that a form's
 * `Record<string, string>` can be passed as it is; a required one left out is refused by the
 * service (400 90100 naming it). A field the operation does not take, or a value outside a
 * field's enumeration, does not compile.
 */
export type AccountFields<N extends AccountOperationName> = Partial<
  Omit<[BodyOf<AccountOp<N>>] extends [never] ? QueryOf<AccountOp<N>> : BodyOf<AccountOp<N>>, ClientSupplied>
>;
/** Any answer of an account operation (success or failure); of any of them, for a union of names. */
export type AccountAnswer<N extends AccountOperationName> = N extends AccountOperationName ? AnswerOf<AccountOp<N>> : never;
/** The answer of a success of an account operation. */
export type AccountSuccess<N extends AccountOperationName> = SuccessOf<AccountOp<N>>;
/** The result codes an account operation can answer. */
export type AccountResultCode<N extends AccountOperationName = AccountOperationName> = AccountAnswer<N> extends { response_code: infer C } ? C : never;

/** The success answers of every account operation, by operation. */
export type AccountAnswers = { [N in AccountOperationName]: AccountSuccess<N> };

type Envelope = 'response_code' | 'response_message';
export type AuthListItem = AccountComponents['schemas']['AuthListItem'];
export type GroupListItem = AccountComponents['schemas']['GroupListItem'];
export type AuthSummary = AccountComponents['schemas']['AuthSummary'];
export type User = AccountComponents['schemas']['User'];
export type AuditEvent = AccountComponents['schemas']['AuditEvent'];
/** An auth as read by id. `parent_auth_id` is `""` for a root auth. */
export type Auth = Omit<AccountSuccess<'getAuth'>, Envelope>;
/** A group as read by id, with the detail of its auths. */
export type Group = Omit<AccountSuccess<'getGroup'>, Envelope>;

/** The location operations. */
export type LbsOperationName = 'lbsQuery' | 'addressQuery' | 'baseStationQuery';
type LbsOp<N extends LbsOperationName> = LocationOperations[N];
type Unprefixed<Q> = { [K in keyof Q as K extends `param.${infer Name}` ? Name : never]: Q[K] };
/** The parameters of a location operation, by bare name (`longitude`, not `param.longitude`). */
export type LbsParams<N extends LbsOperationName> = Unprefixed<QueryOf<LbsOp<N>>>;
/** Any answer of a location operation. */
export type LbsAnswer<N extends LbsOperationName> = AnswerOf<LbsOp<N>>;
/** The answer of a success of a location operation. */
export type LbsSuccess<N extends LbsOperationName> = SuccessOf<LbsOp<N>>;
/** The success answers of every location operation, by operation. */
export type LbsAnswers = { [N in LbsOperationName]: LbsSuccess<N> };
/** The result codes of the location service. */
export type LbsResultCode = LbsAnswer<LbsOperationName> extends { code: infer C } ? C : never;

/**
 * The admin operations of the SDK (`/admin/v1`, docs/contract.md §14), by `AdminClient` method,
 * each the document's operation id. The `/internal/v1` operations (`x-internal`) are the
 * services' own and have no method.
 */
export interface AdminOperationIds {
  openSession: 'openAdminSession';
  currentSession: 'getAdminSession';
  closeSession: 'closeAdminSession';
  createApp: 'createApp';
  listApps: 'listApps';
  getApp: 'getApp';
  modifyApp: 'modifyApp';
  issueCredential: 'issueCredential';
  revokeCredential: 'revokeCredential';
  clearLockout: 'unlockUser';
  createOperator: 'createOperator';
  listOperators: 'listOperators';
  getOperator: 'getOperator';
  modifyOperator: 'modifyOperator';
  auditEvents: 'listAdminAuditEvents';
}
/** An `AdminClient` method that calls the admin API. */
export type AdminOperationName = keyof AdminOperationIds;
type AdminOp<N extends AdminOperationName> = AccountOperations[AdminOperationIds[N]];

/** The JSON body an admin operation takes (a field it does not take, or a value outside an enumeration, does not compile). */
export type AdminBody<N extends AdminOperationName> = BodyOf<AdminOp<N>>;
/** The query an admin operation takes. */
export type AdminQuery<N extends AdminOperationName> = QueryOf<AdminOp<N>>;
/** Any answer of an admin operation (success or failure); of any of them, for a union of names. */
export type AdminAnswer<N extends AdminOperationName> = N extends AdminOperationName ? AnswerOf<AdminOp<N>> : never;
/** The answer of a success of an admin operation. */
export type AdminSuccess<N extends AdminOperationName> = SuccessOf<AdminOp<N>>;
/** The result codes an admin operation can answer. */
export type AdminResultCode<N extends AdminOperationName = AdminOperationName> = AdminAnswer<N> extends { response_code: infer C } ? C : never;
/** The success answers of every admin operation, by `AdminClient` method. */
export type AdminAnswers = { [N in AdminOperationName]: AdminSuccess<N> };

/** An app as listed and read; `source` `config` is an app of `APP_CREDENTIALS` (read-only). */
export type AdminApp = AccountComponents['schemas']['AdminApp'];
/** A credential of an app as listed: never its secret. */
export type AdminCredential = AccountComponents['schemas']['AdminCredential'];
/** An operator; `locked` by failed sign-ins (a `PATCH` with `"state":"enabled"` clears it). */
export type AdminOperator = AccountComponents['schemas']['AdminOperator'];
/** An admin audit event (docs/contract.md §10 fields); admin-level events have `app_token` `""`. */
export type AdminAuditEvent = AccountComponents['schemas']['AdminAuditEvent'];
/** An operator's role. */
export type AdminRole = AdminOperator['role'];
/** An open session (`POST /admin/v1/sessions`, `GET /admin/v1/sessions/current`). */
export type AdminSession = Omit<AdminSuccess<'openSession'>, Envelope>;
/** A new credential: the only answer that ever carries its secret and AES key. */
export type IssuedCredential = Omit<AdminSuccess<'issueCredential'>, Envelope>;
/** The account envelope of every admin answer. */
export type AdminEnvelope = Pick<AdminAnswer<AdminOperationName>, Envelope>;
