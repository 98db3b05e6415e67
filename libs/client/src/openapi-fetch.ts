// `@geoaccount/client/openapi-fetch`: signing for clients generated from the account service's
// OpenAPI document with openapi-typescript + openapi-fetch. The middleware signs each request
// (docs/contract.md §2) and sends the signing values in the X-App-Token, X-Timestamp, X-Nonce
// and X-Signature headers, so that a call carries no placeholder fields:
//
//   const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3001' });
//   client.use(accountSigning({ appToken, secret }));
//   await client.POST('/account/v1.0.1/auths/{auth_id}', { params: { path: { auth_id: 'A1' } }, body: { auth_name: 'Orders' } });
import { accountPlaintext } from '@geoaccount/signing/portable';
import { type WebCryptoKey, hmacSha256Hex, importHmacKey, randomBytes, toHex } from './web-crypto';

/** The parts of openapi-fetch's `Middleware` this one uses (structurally compatible with it). */
export interface SigningMiddleware {
  onRequest(options: { request: Request; params: { path?: Record<string, unknown> } }): Promise<Request>;
}

export interface AccountSigningOptions {
  appToken: string;
  secret: string;
  /** Send a random nonce with every request (required when the service sets `SIGNATURE_REQUIRE_NONCE`). */
  nonce?: boolean;
  /** The service's path prefix, signed from there on (a gateway's own prefix is not signed). Default `/account/v1.0.1/`. */
  servicePrefix?: string;
  /** The clock, Unix milliseconds (tests). */
  now?: () => number;
}

const SIGNING_FIELDS = new Set(['app_token', 'timestamp', 'nonce', 'signature']);

/** The fields of a request as the service reads them: its query (GET) or its body (POST, PUT). */
async function fieldsOf(request: Request, url: URL): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  if (request.method === 'GET' || request.method === 'HEAD') {
    for (const [name, value] of url.searchParams) fields[name] = value;
    return fields;
  }
  const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const body = request.clone();
  if (type === 'application/json') {
    const text = await body.text();
    Object.assign(fields, text ? (JSON.parse(text) as Record<string, string>) : {});
  } else if (type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(await body.text())) fields[name] = value;
  } else if (type === 'multipart/form-data') {
    for (const [name, value] of await body.formData()) if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/** An openapi-fetch middleware that signs every account request in the signing headers. */
export function accountSigning(options: AccountSigningOptions): SigningMiddleware {
  const key: Promise<WebCryptoKey> = importHmacKey(options.secret);
  const prefix = options.servicePrefix ?? '/account/v1.0.1/';
  const now = options.now ?? Date.now;
  return {
    async onRequest({ request, params }) {
      const url = new URL(request.url);
      const at = url.pathname.indexOf(prefix);
      if (at < 0) return request; // not an account operation (health): unsigned
      const signed: Record<string, string> = {};
      for (const [name, value] of Object.entries(await fieldsOf(request, url))) if (!SIGNING_FIELDS.has(name)) signed[name] = value;
      for (const [name, value] of Object.entries(params.path ?? {})) signed[name] = String(value);
      const user = request.headers.get('user');
      if (user !== null) signed.user = user;
      const headers = new Headers(request.headers);
      signed.timestamp = String(Math.floor(now() / 1000));
      headers.set('X-Timestamp', signed.timestamp);
      if (options.nonce) {
        signed.nonce = toHex(randomBytes(12));
        headers.set('X-Nonce', signed.nonce);
      }
      const path = url.pathname.slice(at);
      headers.set('X-App-Token', options.appToken);
      headers.set('X-Signature', await hmacSha256Hex(await key, accountPlaintext(request.method, options.appToken, path, signed)));
      return new Request(request, { headers });
    },
  };
}
