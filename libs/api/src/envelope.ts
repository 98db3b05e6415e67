import type { Request } from 'express';
import { CommonCodes, LbsCodes, LbsStat, interfaceSystemError, type ResultCode } from './result-codes';

/**
 * How a service writes its response envelope, and which of its codes stand for the
 * framework-level failures the exception filter has to map.
 */
export interface EnvelopeStyle {
  readonly invalidParameter: ResultCode;
  readonly unauthorized: ResultCode;
  readonly routeNotFound: ResultCode;
  readonly methodNotAllowed: ResultCode;
  readonly bodyTooLarge: ResultCode;
  readonly unsupportedMediaType: ResultCode;
  readonly rateLimited: ResultCode;
  /** The code of an unexpected failure of this request (`unavailable`: a dependency is down). */
  systemError(req: Request, unavailable: boolean): ResultCode;
  body(result: ResultCode, message: string, extra?: Record<string, unknown>): Record<string, unknown>;
}

/** Request property under which the handler's interface number is kept (five-digit codes). */
export const INTERFACE_NO = Symbol('interfaceNo');
export type TaggedRequest = Request & { [INTERFACE_NO]?: number };

/** The `response_code` envelope (the account service's): `{ response_code, response_message, ...fields }`. */
export const accountEnvelope: EnvelopeStyle = {
  invalidParameter: CommonCodes.INVALID_PARAMETER,
  unauthorized: CommonCodes.UNAUTHORIZED,
  routeNotFound: CommonCodes.ROUTE_NOT_FOUND,
  methodNotAllowed: CommonCodes.METHOD_NOT_ALLOWED,
  bodyTooLarge: CommonCodes.BODY_TOO_LARGE,
  unsupportedMediaType: CommonCodes.UNSUPPORTED_MEDIA_TYPE,
  rateLimited: CommonCodes.RATE_LIMITED,
  systemError: (req, unavailable) => interfaceSystemError((req as TaggedRequest)[INTERFACE_NO], unavailable ? 503 : 500),
  body: (result, message, extra) => ({ response_code: result.code, response_message: message, ...extra }),
};

/** Location envelope: `{ code, resultDesc, lbsStat, ...fields }`; every failure has lbsStat 0. */
export const lbsEnvelope: EnvelopeStyle = {
  invalidParameter: LbsCodes.INVALID_PARAMETER,
  unauthorized: LbsCodes.BAD_SIGNATURE,
  routeNotFound: LbsCodes.ROUTE_NOT_FOUND,
  methodNotAllowed: LbsCodes.METHOD_NOT_ALLOWED,
  bodyTooLarge: LbsCodes.BODY_TOO_LARGE,
  unsupportedMediaType: LbsCodes.UNSUPPORTED_MEDIA_TYPE,
  rateLimited: LbsCodes.RATE_LIMITED,
  systemError: (_req, unavailable) => (unavailable ? LbsCodes.UPSTREAM_UNAVAILABLE : LbsCodes.SYSTEM_ERROR),
  body: (result, message, extra) => ({ code: result.code, resultDesc: message, lbsStat: LbsStat.FAILURE, ...extra }),
};

/** A successful answer in the `response_code` envelope. */
export function accountOk(created: boolean, fields?: Record<string, unknown>): Record<string, unknown> {
  const result = created ? CommonCodes.OK_CREATED : CommonCodes.OK;
  return { response_code: result.code, response_message: result.message, ...fields };
}
