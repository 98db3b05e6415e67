import { type KeyObject } from 'node:crypto';
import { LBS_BUSINESS_PARAMS, hmacKey, lbsSignedNames, signLbs } from '@geoaccount/signing';
import { type ClientResponse, send } from './http';

export interface LbsClientOptions {
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

export interface LbsResult {
  code: string;
  resultDesc?: string;
  lbsStat: string;
  longitude?: string;
  latitude?: string;
  provinceName?: string;
  provinceCode?: string;
  areaName?: string;
  areaCode?: string;
  standardCode?: string;
  country?: string;
  address?: string;
}

export const LBS_OPERATIONS = {
  lbsQuery: ['longitude', 'latitude'],
  addressQuery: ['city', 'address'],
  baseStationQuery: ['mcc', 'mnc', 'lac', 'cellid'],
} as const;
export type LbsOperationName = keyof typeof LBS_OPERATIONS;

/** A typed client for the location service that signs every request (CONTRACT §3). */
export class LbsClient {
  private readonly key: KeyObject;

  constructor(readonly options: LbsClientOptions) {
    this.key = hmacKey(options.secret);
  }

  /** Calls an operation; `params` are bare names (the `param.` prefix is added). */
  call(
    operation: LbsOperationName,
    params: Record<string, string | undefined>,
    tweaks: { signature?: string | null; userToken?: string | null; extra?: Record<string, string> } = {},
  ): Promise<ClientResponse<LbsResult>> {
    const names = lbsSignedNames(LBS_OPERATIONS[operation]);
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) if (v !== undefined) query[`param.${k}`] = v;
    const signature = tweaks.signature === undefined ? signLbs(this.key, operation, names, params) : tweaks.signature;
    const userToken = tweaks.userToken === undefined ? this.options.userToken : tweaks.userToken;
    if (userToken !== null) query.userToken = userToken;
    if (signature !== null) query.signature = signature;
    Object.assign(query, tweaks.extra);
    return send<LbsResult>('GET', `${this.options.baseUrl.replace(/\/$/, '')}/lbsapi/api/${operation}`, query);
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
