import { LBS_BUSINESS_PARAMS, lbsPlaintext, lbsSignedNames } from '@geoaccount/signing/portable';
import { type ApiResponse, type TransportOptions, send, withRetries } from './http';
import type { LbsAnswers, LbsEnvelope } from './types';
import { type WebCryptoKey, hmacSha256Hex, importHmacKey } from './web-crypto';

export interface LbsClientOptions extends TransportOptions {
  /** Where the location service listens, e.g. `http://127.0.0.1:3002`. */
  baseUrl: string;
  /** The app token, sent as `userToken`. */
  userToken: string;
  secret: string;
}

export type BusinessParams = {
  productId?: string;
  busdepId?: string;
  merId?: string;
};

/** Any location answer: the envelope, and the fields of whichever operation answered. */
export type LbsResult = LbsEnvelope & Partial<LbsAnswers['lbsQuery'] & LbsAnswers['addressQuery']>;

export const LBS_OPERATIONS = {
  lbsQuery: ['longitude', 'latitude'],
  addressQuery: ['city', 'address'],
  baseStationQuery: ['mcc', 'mnc', 'lac', 'cellid'],
} as const;
export type LbsOperationName = keyof typeof LBS_OPERATIONS;

/**
 * A client of the location service: signs every request (docs/contract.md §3) and retries (they are all
 * GETs). Each call answers an `ApiResponse`; `.ok()` gives the typed body or throws an `ApiError`.
 */
export class LbsClient {
  private readonly key: Promise<WebCryptoKey>;

  constructor(readonly options: LbsClientOptions) {
    this.key = importHmacKey(options.secret);
  }

  /** Calls an operation; `params` are bare names (the `param.` prefix is added). */
  call<Op extends LbsOperationName>(
    operation: Op,
    params: Record<string, string | undefined>,
    tweaks: { signature?: string | null; userToken?: string | null; extra?: Record<string, string> } = {},
  ): Promise<ApiResponse<LbsAnswers[Op]>> {
    return withRetries('GET', this.options, async () => {
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(params)) if (v !== undefined) query[`param.${k}`] = v;
      const signature = tweaks.signature === undefined ? await this.sign(operation, params) : tweaks.signature;
      const userToken = tweaks.userToken === undefined ? this.options.userToken : tweaks.userToken;
      if (userToken !== null) query.userToken = userToken;
      if (signature !== null) query.signature = signature;
      Object.assign(query, tweaks.extra);
      const url = `${this.options.baseUrl.replace(/\/$/, '')}/lbsapi/api/${operation}`;
      return send<LbsAnswers[Op]>('GET', url, query, { envelope: 'location', fetch: this.options.fetch });
    });
  }

  /** The docs/contract.md §3 signature of an operation's parameters (bare names). */
  async sign(operation: LbsOperationName, params: Readonly<Record<string, string | undefined>>): Promise<string> {
    return hmacSha256Hex(await this.key, lbsPlaintext(operation, lbsSignedNames(LBS_OPERATIONS[operation]), params));
  }

  lbsQuery(p: { longitude: string; latitude: string } & BusinessParams) {
    return this.call('lbsQuery', p);
  }
  addressQuery(p: { city: string; address: string } & BusinessParams) {
    return this.call('addressQuery', p);
  }
  baseStationQuery(p: { mcc: string; mnc: string; lac: string; cellid: string } & BusinessParams) {
    return this.call('baseStationQuery', p);
  }
}

export { LBS_BUSINESS_PARAMS };
