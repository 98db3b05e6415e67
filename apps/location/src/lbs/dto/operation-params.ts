import { DECIMAL_TEXT, DIGITS_TEXT, type ParamRule, type ParamRules, type Params } from './lbs-params';

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
export const LBS_QUERY = {
  ...BUSINESS,
  'param.longitude': required(20, 'Longitude, decimal degrees in COORD_SYSTEM, -180…180', '116.397', { pattern: DECIMAL_TEXT, limit: 180 }),
  'param.latitude': required(20, 'Latitude, decimal degrees in COORD_SYSTEM, -90…90', '39.909', { pattern: DECIMAL_TEXT, limit: 90 }),
} satisfies ParamRules;

/** `addressQuery`: city + address → coordinates. */
export const ADDRESS_QUERY = {
  ...BUSINESS,
  'param.city': required(255, 'City', '上海'),
  'param.address': required(255, 'Address', '浦东新区世纪大道100号'),
} satisfies ParamRules;

const digits = (description: string, example: string) => required(20, description, example, { pattern: DIGITS_TEXT });

/** `baseStationQuery`: mcc, mnc, lac, cellid → coordinates and address. */
export const BASE_STATION_QUERY = {
  ...BUSINESS,
  'param.mcc': digits('Mobile country code, digits', '460'),
  'param.mnc': digits('Mobile network code, digits', '0'),
  'param.lac': digits('Location area code (LTE: TAC), digits', '4000'),
  'param.cellid': digits('Cell id (LTE: ECI), digits', '10000'),
} satisfies ParamRules;

export type LbsQueryParams = Params<typeof LBS_QUERY>;
export type AddressQueryParams = Params<typeof ADDRESS_QUERY>;
export type BaseStationQueryParams = Params<typeof BASE_STATION_QUERY>;
