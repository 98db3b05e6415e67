import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { AccountCodes, type ResultCode, accountSystemError } from '@geoaccount/api';
import { type JsonSchema, dtoFields, dtoObjectSchema } from '@geoaccount/http';
import { AdminSessionCodes } from './admin-sessions.codes';

type DtoClass = abstract new (...args: never[]) => unknown;

export interface AdminOperationDoc {
  operationId: string;
  summary: string;
  description: string;
  /** The status of a success. */
  status: 200 | 201;
  /** Path parameters and their schemas. */
  path?: Record<string, JsonSchema>;
  /** The JSON body's DTO class. */
  body?: DtoClass;
  /** The query's DTO class. */
  query?: DtoClass;
  /** Fields of a success besides `response_code` and `response_message`. */
  answer?: JsonSchema;
  /** Codes of this operation besides the common ones (401, 403, 400, 500, 503). */
  codes?: ResultCode[];
  /** Routes without authentication (sign-in): no 401 90401 of a missing session, no 403 90403. */
  open?: boolean;
  /** A success also answered with another code (e.g. an empty audit page). */
  successCodes?: ResultCode[];
  /** Response headers of a success. */
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  /** Marked `x-internal` (service-to-service, not for client apps). */
  internal?: boolean;
}

function envelope(codes: ResultCode[], body?: JsonSchema): JsonSchema {
  const properties = (body?.properties ?? {}) as Record<string, JsonSchema>;
  const required = (body?.required ?? []) as string[];
  return {
    type: 'object',
    properties: {
      response_code: { type: 'string', enum: [...new Set(codes.map((c) => c.code))] },
      response_message: { type: 'string', maxLength: 32 },
      ...properties,
    },
    required: ['response_code', 'response_message', ...required],
    additionalProperties: false,
  };
}

/**
 * Documents one operation of the admin (or internal) API (docs/contract.md §14): JSON body
 * and query from the DTO's rules, each status with the codes it can answer.
 */
export function AdminOperation(doc: AdminOperationDoc): MethodDecorator {
  const success = doc.status === 201 ? AccountCodes.OK_CREATED : AccountCodes.OK;
  const common: ResultCode[] = doc.open ? [] : [AdminSessionCodes.NOT_SIGNED_IN, AdminSessionCodes.FORBIDDEN];
  if (doc.body || doc.query || doc.path) common.push(AccountCodes.INVALID_PARAMETER);
  if (doc.body) common.push(AccountCodes.BODY_TOO_LARGE, AccountCodes.UNSUPPORTED_MEDIA_TYPE);
  const codes = [success, ...(doc.successCodes ?? []), ...(doc.codes ?? []), ...common, accountSystemError(undefined, 500), accountSystemError(undefined, 503)];
  const byStatus = new Map<number, ResultCode[]>();
  for (const code of codes) byStatus.set(code.status, [...(byStatus.get(code.status) ?? []), code]);
  const codeList = codes.map((c) => `- \`${c.code}\` (HTTP ${c.status}): ${c.message}`).join('\n');
  const decorators: MethodDecorator[] = [
    ApiOperation({ summary: doc.summary, operationId: doc.operationId, description: `${doc.description}\n\nResult codes:\n${codeList}` }),
    ...Object.entries(doc.path ?? {}).map(([name, schema]) => ApiParam({ name, required: true, schema: schema as never })),
  ];
  if (doc.internal) decorators.push(ApiExtension('x-internal', true));
  for (const field of doc.query ? dtoFields(doc.query) : []) {
    decorators.push(ApiQuery({ name: field.name, required: field.required, schema: field.schema as never }));
  }
  if (doc.body) {
    decorators.push(ApiBody({ required: true, schema: dtoObjectSchema(doc.body) as never }));
  }
  for (const [status, statusCodes] of byStatus) {
    const ok = status < 300;
    const examples = Object.fromEntries(
      statusCodes.map((c) => [`code${c.code}`, { summary: c.message, value: { response_code: c.code, response_message: c.message } }]),
    );
    decorators.push(
      ApiResponse({
        status,
        description: statusCodes.map((c) => `${c.code}: ${c.message}`).join('; '),
        ...(ok && doc.headers ? { headers: doc.headers as never } : {}),
        content: {
          'application/json': {
            schema: envelope(statusCodes, ok ? doc.answer : undefined) as never,
            ...(ok && doc.answer ? {} : { examples }),
          },
        },
      }),
    );
  }
  return applyDecorators(...decorators);
}
