import { type ParamRule, type ParamRules, type TableParams, paramTable } from '@geoaccount/http';

/** Decimal degrees as text: an optional sign, digits, an optional fraction. */
export const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** A base-station identifier as text: digits only. */
export const DIGITS_TEXT = /^\d+$/;

/**
 * A location operation's rule table (checked by `ParamsPipe`, documented by `ApiParams`, both
 * of libs/http's fast path): the caller and the signature are the guard's; and since the signed
 * plaintext joins the values with ':' unescaped (docs/contract.md §3), a value holding one could pass
 * text to its neighbour under the same signature: it is refused.
 */
const lbsParams = <R extends ParamRules>(rules: R) => paramTable(rules, { passThrough: ['userToken', 'signature'], forbiddenChar: ':' });

const required = (max: number, description: string, example: string, extra: Partial<ParamRule> = {}): ParamRule & { required: true } => ({
  ...extra,
  required: true,
  max,
  description,
  example,
});

/**
 * The optional business parameters every operation takes (`param.productId`...). They are
 * signed and logged for accounting; they never change an answer.
 */
const BUSINESS = {
  'param.productId': { required: false, max: 20, description: 'Product number (signed, logged; not part of the answer)' },
  'param.busdepId': { required: false, max: 20, description: 'Business department number' },
  'param.merId': { required: false, max: 20, description: 'Merchant number' },
} as const satisfies Record<string, ParamRule>;

/** `lbsQuery`: coordinates → address. */
export const LBS_QUERY = lbsParams({
  ...BUSINESS,
  'param.longitude': required(20, 'Longitude, decimal degrees in COORD_SYSTEM, -180…180', '116.397', { pattern: DECIMAL_TEXT, limit: 180 }),
  'param.latitude': required(20, 'Latitude, decimal degrees in COORD_SYSTEM, -90…90', '39.909', { pattern: DECIMAL_TEXT, limit: 90 }),
});

/** `addressQuery`: city + address → coordinates. */
export const ADDRESS_QUERY = lbsParams({
  ...BUSINESS,
  'param.city': required(255, 'City', '上海'),
  'param.address': required(255, 'Address', '浦东新区世纪大道100号'),
});

const digits = (description: string, example: string) => required(20, description, example, { pattern: DIGITS_TEXT });

/** `baseStationQuery`: mcc, mnc, lac, cellid → coordinates and address. */
export const BASE_STATION_QUERY = lbsParams({
  ...BUSINESS,
  'param.mcc': digits('Mobile country code, digits', '460'),
  'param.mnc': digits('Mobile network code, digits', '0'),
  'param.lac': digits('Location area code (LTE: TAC), digits', '4000'),
  'param.cellid': digits('Cell id (LTE: ECI), digits', '10000'),
});

export type LbsQueryParams = TableParams<typeof LBS_QUERY>;
export type AddressQueryParams = TableParams<typeof ADDRESS_QUERY>;
export type BaseStationQueryParams = TableParams<typeof BASE_STATION_QUERY>;
