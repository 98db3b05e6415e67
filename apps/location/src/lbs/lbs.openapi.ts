import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { LbsCodes, LbsStat, type ResultCode } from '@geoaccount/api';
import type { JsonSchema } from '@geoaccount/http';

/** A field of an answer: text, `""` when the lookup has no value for it (never `null`, docs/contract.md §13). */
const field: JsonSchema = { type: 'string' };

/** The address fields of lbsQuery and baseStationQuery (`addressFields`). */
const ADDRESS_FIELDS = {
  provinceName: field,
  provinceCode: field,
  areaName: field,
  areaCode: field,
  standardCode: field,
  country: field,
  address: field,
};
const COORDINATES = { longitude: field, latitude: field };

/** The fields of each operation's success answer besides the envelope. */
export const LBS_ANSWER_FIELDS = {
  lbsQuery: ADDRESS_FIELDS,
  addressQuery: { ...COORDINATES, standardCode: field },
  baseStationQuery: { ...COORDINATES, ...ADDRESS_FIELDS },
} satisfies Record<string, Record<string, JsonSchema>>;

/** The codes every operation can answer, success first. */
const CODES: ResultCode[] = [
  LbsCodes.OK_UPSTREAM,
  LbsCodes.OK_CACHE,
  LbsCodes.INVALID_PARAMETER,
  LbsCodes.BAD_SIGNATURE,
  LbsCodes.NOT_FOUND,
  LbsCodes.RATE_LIMITED,
  LbsCodes.SYSTEM_ERROR,
  LbsCodes.UPSTREAM_UNAVAILABLE,
];

function envelope(status: number, fields: Record<string, JsonSchema> = {}): JsonSchema {
  const success = status < 300;
  const properties = {
    code: { type: 'string', enum: [...new Set(CODES.filter((c) => c.status === status).map((c) => c.code))] },
    resultDesc: { type: 'string', description: 'What happened.' },
    lbsStat: success
      ? { type: 'string', enum: [LbsStat.UPSTREAM, LbsStat.CACHE], description: '"1": computed by the upstream, "2": from the cache.' }
      : { type: 'string', enum: [LbsStat.FAILURE] },
    ...fields,
  };
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * Documents a location operation: summary, description with its result codes, and a
 * response per HTTP status (docs/contract.md §8) with the envelope and, for 200, every answer field.
 */
export function LbsOperationDoc(operation: keyof typeof LBS_ANSWER_FIELDS, summary: string, description: string): MethodDecorator {
  const statuses = [...new Set(CODES.map((c) => c.status))];
  const codeList = CODES.map((c) => `- \`${c.code}\` (HTTP ${c.status}): ${c.message}`).join('\n');
  return applyDecorators(
    ApiOperation({ operationId: operation, summary, description: `${description}\n\nResult codes:\n${codeList}` }),
    ...statuses.map((status) => {
      const codes = CODES.filter((c) => c.status === status);
      const examples = Object.fromEntries(
        codes.map((c, i) => [
          `example${i + 1}`,
          {
            summary: c.message,
            value: {
              code: c.code,
              resultDesc: c.message,
              lbsStat: status < 300 ? (c === LbsCodes.OK_CACHE ? LbsStat.CACHE : LbsStat.UPSTREAM) : LbsStat.FAILURE,
            },
          },
        ]),
      );
      return ApiResponse({
        status,
        description: codes.map((c) => `${c.code}: ${c.message}`).join('; '),
        content: {
          'application/json': {
            schema: envelope(status, status < 300 ? LBS_ANSWER_FIELDS[operation] : {}) as never,
            ...(status < 300 ? {} : { examples }),
          },
        },
      });
    }),
  );
}
