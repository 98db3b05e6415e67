import { LBS_BUSINESS_PARAMS, lbsPlaintext, lbsSignedNames } from '@geoaccount/signing/portable';
import { type AnswerBody, type ApiResponse, type CallOptions, type LooseAnswer, type TransportOptions, send, withRetries } from './http';
import type { LbsAnswer, LbsAnswers, LbsOperationName, LbsParams, LbsSuccess } from './schema';
import { type WebCryptoKey, hmacSha256Hex, importHmacKey } from './web-crypto';

export interface LbsClientOptions extends TransportOptions {
  /** Where the location service listens, e.g. `http://127.0.0.1:3002`. */
  baseUrl: string;
  /** The app's token (sent as `userToken`), as for `AccountClient`. */
  appToken?: string;
  /** @deprecated The former name of `appToken`. */
  userToken?: string;
  /** The app's secret (signs every request). */
  secret: string;
}

export type BusinessParams = {
  productId?: string;
  busdepId?: string;
  merId?: string;
};

/** Any location answer: the envelope, and the fields of whichever operation answered. */
export type LbsResult = LbsAnswer<LbsOperationName> & Partial<LbsAnswers['lbsQuery'] & LbsAnswers['addressQuery']>;

/**
 * The answer of a location call: `ok()` its success; `body` any answer (narrow it with
 * `LbsAnswer<N>` for the codes and `lbsStat` values the operation has).
 */
export type LbsResponse<N extends LbsOperationName> = ApiResponse<LbsSuccess<N>>;

export const LBS_OPERATIONS = {
  lbsQuery: ['longitude', 'latitude'],
  addressQuery: ['city', 'address'],
  baseStationQuery: ['mcc', 'mnc', 'lac', 'cellid'],
} as const;
export type { LbsOperationName } from './schema';

/** Ways to bend a location request, for tests (`@geoaccount/client/internal`). */
export interface LbsTweaks extends CallOptions {
  signature?: string | null;
  userToken?: string | null;
  extra?: Record<string, string>;
}

/** Signs (docs/contract.md §3) and sends location requests; `LbsClient` and `TestLbsClient` are built on it. */
export class LbsTransport {
  private readonly key: Promise<WebCryptoKey>;
  readonly appToken: string;

  constructor(readonly options: LbsClientOptions) {
    const appToken = options.appToken ?? options.userToken;
    if (appToken === undefined) throw new Error('LbsClient: appToken is missing');
    this.appToken = appToken;
    this.key = importHmacKey(options.secret);
  }

  /** Calls an operation; `params` are bare names (the `param.` prefix is added). */
  call<Op extends LbsOperationName, B = AnswerBody<LbsSuccess<Op>>>(
    operation: Op,
    params: Record<string, string | undefined>,
    tweaks: LbsTweaks = {},
  ): Promise<ApiResponse<LbsSuccess<Op>, B>> {
    return withRetries(
      'GET',
      this.options,
      async () => {
        const query: Record<string, string> = {};
        for (const [k, v] of Object.entries(params)) if (v !== undefined) query[`param.${k}`] = v;
        const signature = tweaks.signature === undefined ? await this.sign(operation, params) : tweaks.signature;
        const userToken = tweaks.userToken === undefined ? this.appToken : tweaks.userToken;
        if (userToken !== null) query.userToken = userToken;
        if (signature !== null) query.signature = signature;
        Object.assign(query, tweaks.extra);
        const url = `${this.options.baseUrl.replace(/\/$/, '')}/lbsapi/api/${operation}`;
        return send<LbsSuccess<Op>, B>('GET', url, query, {
          envelope: 'location',
          fetch: this.options.fetch,
          signal: tweaks.signal,
          timeoutMs: tweaks.timeoutMs ?? this.options.timeoutMs,
        });
      },
      tweaks.signal,
    );
  }

  /** The docs/contract.md §3 signature of an operation's parameters (bare names). */
  async sign(operation: LbsOperationName, params: Readonly<Record<string, string | undefined>>): Promise<string> {
    return hmacSha256Hex(await this.key, lbsPlaintext(operation, lbsSignedNames(LBS_OPERATIONS[operation]), params));
  }
}

/**
 * A client of the location service: signs every request (docs/contract.md §3) and retries
 * (they are all GETs). Parameters and answers are typed from the service's OpenAPI document.
 * Each call answers an `ApiResponse`; `.ok()` gives the typed body or throws an `ApiError`.
 */
export class LbsClient {
  readonly #transport: LbsTransport;

  constructor(options: LbsClientOptions) {
    this.#transport = new LbsTransport(options);
  }

  get options(): LbsClientOptions {
    return this.#transport.options;
  }

  /** Calls an operation by name with its parameters (bare names). */
  call<Op extends LbsOperationName>(operation: Op, params: LbsParams<Op>, options?: CallOptions): Promise<LbsResponse<Op>> {
    return this.#transport.call<Op, LooseAnswer<LbsSuccess<Op>>>(operation, params as Record<string, string | undefined>, options);
  }
  lbsQuery(p: LbsParams<'lbsQuery'>, options?: CallOptions) {
    return this.call('lbsQuery', p, options);
  }
  addressQuery(p: LbsParams<'addressQuery'>, options?: CallOptions) {
    return this.call('addressQuery', p, options);
  }
  baseStationQuery(p: LbsParams<'baseStationQuery'>, options?: CallOptions) {
    return this.call('baseStationQuery', p, options);
  }
  /** The docs/contract.md §3 signature of an operation's parameters (bare names). */
  sign(operation: LbsOperationName, params: Readonly<Record<string, string | undefined>>): Promise<string> {
    return this.#transport.sign(operation, params);
  }
}

/** The workspace's location client: `call` takes any parameters and the tweaks of a test. */
export class TestLbsClient extends LbsTransport {
  lbsQuery(p: { longitude: string; latitude: string } & BusinessParams, tweaks?: LbsTweaks) {
    return this.call('lbsQuery', p, tweaks);
  }
  addressQuery(p: { city: string; address: string } & BusinessParams, tweaks?: LbsTweaks) {
    return this.call('addressQuery', p, tweaks);
  }
  baseStationQuery(p: { mcc: string; mnc: string; lac: string; cellid: string } & BusinessParams, tweaks?: LbsTweaks) {
    return this.call('baseStationQuery', p, tweaks);
  }
}

export { LBS_BUSINESS_PARAMS };
