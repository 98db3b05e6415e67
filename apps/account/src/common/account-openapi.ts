import { Controller, RequestMethod, applyDecorators } from '@nestjs/common';

/** Nest's metadata keys of a route handler (`@nestjs/common/constants`). */
const METHOD_METADATA = 'method';
const PATH_METADATA = 'path';
import { ApiBody, ApiExtension, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { type ResultCode, interfaceSystemError } from '@geoaccount/api';
import { AccountCodes, AccountInterface, type AccountInterfaceNo } from './account-codes';
import { type JsonSchema, dtoFields, dtoObjectSchema } from '@geoaccount/http';
import { ID_PATTERN } from './field-rules';
import { ID_LIMITS } from './path-id';

type DtoClass = abstract new (...args: never[]) => unknown;

const SIGNING_TEXT =
  'docs/contract.md §2: `signature` = lowercase hex HMAC-SHA256, keyed with the app secret, of ' +
  '`UPPER(method) + app_token + path + "?" + sorted name=value pairs` (every query or body field except `app_token` ' +
  'and `signature`, plus the path ids, plus the `user` header as `user` when sent). See docs/signing.md.';

/**
 * The signing values of docs/contract.md §2 as security schemes: in the `X-App-Token`,
 * `X-Timestamp` and `X-Signature` headers (any operation), or as query parameters (reads).
 * Writes may carry them as body fields instead, which no security scheme can express: their
 * operations also accept the empty requirement, and their bodies declare the fields.
 */
export const SIGNING_SCHEMES = {
  appTokenHeader: { type: 'apiKey', in: 'header', name: 'X-App-Token', description: `The calling app. ${SIGNING_TEXT}` },
  timestampHeader: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix seconds; signed.' },
  signatureHeader: { type: 'apiKey', in: 'header', name: 'X-Signature', description: SIGNING_TEXT },
  appTokenQuery: { type: 'apiKey', in: 'query', name: 'app_token', description: 'The calling app (a read signed in its query).' },
  timestampQuery: { type: 'apiKey', in: 'query', name: 'timestamp', description: 'Unix seconds; signed.' },
  signatureQuery: { type: 'apiKey', in: 'query', name: 'signature', description: SIGNING_TEXT },
} as const;

const IN_HEADERS = { appTokenHeader: [], timestampHeader: [], signatureHeader: [] };
const IN_QUERY = { appTokenQuery: [], timestampQuery: [], signatureQuery: [] };

/** The security alternatives of a signed operation: headers, or the query (reads) / body fields (writes). */
export function signingSecurity(method: string): Record<string, string[]>[] {
  return method.toUpperCase() === 'GET' ? [IN_HEADERS, IN_QUERY] : [IN_HEADERS, {}];
}

/** The signing fields a write's body may carry instead of the signing headers. */
export const SIGNATURE_FIELDS: Record<string, JsonSchema> = {
  app_token: { type: 'string', pattern: '^app-[0-9a-fA-F]{1,36}$', description: 'The calling app; unless sent as X-App-Token.' },
  timestamp: { type: 'string', pattern: '^\\d+$', description: 'Unix seconds; signed; unless sent as X-Timestamp.' },
  nonce: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: 'Optional (required when the service sets SIGNATURE_REQUIRE_NONCE); signed; usable once; or X-Nonce.',
  },
  signature: { type: 'string', pattern: '^[0-9a-fA-F]{64}$', description: 'HMAC-SHA256 hex (docs/signing.md); unless sent as X-Signature.' },
};

/** Optional headers of every signed operation. */
const SIGNED_HEADERS: { name: string; schema: JsonSchema }[] = [
  { name: 'X-Nonce', schema: { type: 'string', minLength: 1, maxLength: 64, description: 'The nonce in a header instead of the field; signed.' } },
  {
    name: 'user',
    schema: {
      type: 'string',
      description: 'The end user the app acts for; signed as the parameter `user`; the audit trail records it as `operator`.',
    },
  },
];

/** The account envelope of an answer with the given codes and, for a success, its body fields. */
function envelope(codes: ResultCode[], body?: JsonSchema): JsonSchema {
  const properties = (body?.properties ?? {}) as Record<string, JsonSchema>;
  const required = (body?.required ?? []) as string[];
  return {
    type: 'object',
    properties: {
      response_code: { type: 'string', enum: [...new Set(codes.map((c) => c.code))], description: 'Result code (docs/account-api.md).' },
      response_message: { type: 'string', maxLength: 32 },
      ...properties,
    },
    required: ['response_code', 'response_message', ...required],
    additionalProperties: false,
  };
}

/** The codes an operation can answer: its own (interface prefix), the common ones, and its system errors. */
export function operationCodes(no: AccountInterfaceNo, method: 'GET' | 'POST' | 'PUT', extra: ResultCode[] = []): ResultCode[] {
  const own = Object.values(AccountCodes).filter((c) => c.code.startsWith(String(no)));
  const success = method === 'GET' || no === AccountInterface.LOGIN ? AccountCodes.OK : AccountCodes.OK_CREATED;
  const common = [AccountCodes.INVALID_PARAMETER, AccountCodes.UNAUTHORIZED, AccountCodes.RATE_LIMITED];
  if (method !== 'GET') common.push(AccountCodes.BODY_TOO_LARGE);
  return [success, ...own, ...extra, ...common, interfaceSystemError(no, 500), interfaceSystemError(no, 503)];
}

export interface AccountOperationDoc {
  summary: string;
  description: string;
  /** The DTO class validating the body (POST/PUT) or the query (GET). */
  fields?: DtoClass;
  /** Body fields of a success besides `response_code` and `response_message` (an object schema). */
  answer?: JsonSchema;
  /** Codes outside the interface's own prefix this operation can answer. */
  extraCodes?: ResultCode[];
}

/** What the route decorators say of an operation: its method and the path ids of its route. */
interface RouteOfOperation {
  method: 'GET' | 'POST' | 'PUT';
  /** Path ids of the route, in order. */
  path: (keyof typeof ID_LIMITS)[];
}

const OPERATION_DOC = Symbol('account operation documentation');

/**
 * Documents one account operation from the rules that serve it: the interface number, the
 * fields of its DTO class as class-validator checks them, the signature fields, and a
 * response per HTTP status with the result codes of `AccountCodes` it can answer. Its method
 * and path come from the route itself (`@Get(...)` / `@Post(...)` / `@Put(...)` and the
 * controller's path): the controller is declared with `@AccountController(path)`, which
 * applies the documentation once the routes are known.
 */
export function AccountOperation(no: AccountInterfaceNo, doc: AccountOperationDoc): MethodDecorator {
  return (target, key) => Reflect.defineMetadata(OPERATION_DOC, { no, doc }, target, key);
}

/** `@Controller(path)` of an account controller, documenting its `@AccountOperation`s from their routes. */
export function AccountController(path: string): ClassDecorator {
  return (cls) => {
    Controller(path)(cls);
    const proto = cls.prototype as object;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const entry = Reflect.getMetadata(OPERATION_DOC, proto, key) as { no: AccountInterfaceNo; doc: AccountOperationDoc } | undefined;
      if (!entry) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      const route = routeOf(path, descriptor.value as object, `${cls.name}.${key}`);
      operationDecorators(entry.no, entry.doc, route)(proto, key, descriptor);
    }
  };
}

/** The method and path ids the route decorators (Nest's `method` and `path` metadata) gave a handler. */
function routeOf(controllerPath: string, handler: object, where: string): RouteOfOperation {
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
  if (method !== 'GET' && method !== 'POST' && method !== 'PUT')
    throw new Error(`${where}: an account operation is a GET, POST or PUT route`);
  const routePath = (Reflect.getMetadata(PATH_METADATA, handler) as string | undefined) ?? '';
  const ids = [...`${controllerPath}/${routePath}`.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  for (const id of ids) if (!(id in ID_LIMITS)) throw new Error(`${where}: path id ${id} has no length rule (ID_LIMITS)`);
  return { method, path: ids as (keyof typeof ID_LIMITS)[] };
}

function operationDecorators(no: AccountInterfaceNo, given: AccountOperationDoc, route: RouteOfOperation): MethodDecorator {
  const doc = { ...given, ...route };
  const codes = operationCodes(no, doc.method, doc.extraCodes);
  const byStatus = new Map<number, ResultCode[]>();
  for (const code of codes) byStatus.set(code.status, [...(byStatus.get(code.status) ?? []), code]);
  const codeList = codes.map((c) => `- \`${c.code}\` (HTTP ${c.status}): ${c.message}`).join('\n');
  const decorators = [
    ApiOperation({
      summary: doc.summary,
      operationId: operationId(no),
      description: `Interface ${no}. ${doc.description} A field not listed here is refused (90100, "unknown field X").\n\nResult codes:\n${codeList}`,
    }),
    ApiExtension('x-interface', no),
    ...SIGNED_HEADERS.map((h) => ApiHeader({ name: h.name, required: false, schema: h.schema as never })),
    ...(doc.path ?? []).map((name) =>
      ApiParam({
        name,
        required: true,
        description: `Record id: 1 to ${ID_LIMITS[name]} characters, no comma, no control character, no surrounding space.`,
        schema: { type: 'string', minLength: 1, maxLength: ID_LIMITS[name], pattern: ID_PATTERN.source },
      }),
    ),
  ];
  if (doc.method === 'GET') {
    // The signing values are the security schemes' (app_token, timestamp, signature); the path
    // ids are the path's: a read repeats neither as a documented query parameter.
    const fields = [...(doc.fields ? dtoFields(doc.fields) : []), { name: 'nonce', required: false, schema: SIGNATURE_FIELDS.nonce! }];
    for (const field of fields) {
      decorators.push(ApiQuery({ name: field.name, required: field.required, schema: field.schema as never }));
    }
  } else {
    const body = doc.fields ? dtoObjectSchema(doc.fields) : { type: 'object', properties: {} };
    const required = [...((body.required as string[] | undefined) ?? [])];
    const properties = { ...(body.properties as Record<string, JsonSchema>) };
    for (const [name, schema] of Object.entries(SIGNATURE_FIELDS)) properties[name] = schema;
    for (const name of doc.path ?? []) properties[name] = repeatedPathId(name).schema;
    // A modify may send no field at all (every signing value in headers): its body is optional.
    decorators.push(ApiBody({ required: required.length > 0, schema: { type: 'object', properties, required, additionalProperties: false } as never }));
  }
  for (const [status, statusCodes] of byStatus) {
    // A page past the last one answers 404 with the list's fields (docs/contract.md §13).
    const success = status < 300 || statusCodes.some((c) => FAILURES_WITH_ANSWER.has(c));
    const examples = Object.fromEntries(
      statusCodes.map((c) => [`code${c.code}`, { summary: c.message, value: { response_code: c.code, response_message: c.message } }]),
    );
    decorators.push(
      ApiResponse({
        status,
        description: statusCodes.map((c) => `${c.code}: ${c.message}`).join('; '),
        content: {
          'application/json': {
            schema: envelope(statusCodes, success ? doc.answer : undefined) as never,
            ...(success && doc.answer ? {} : { examples }),
          },
        },
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** Failure codes whose answer carries the operation's answer fields. */
const FAILURES_WITH_ANSWER = new Set<ResultCode>([AccountCodes.USER_PAGE_MISSING]);

/** A path id repeated as a field: allowed, with the same value only (else 90100). */
function repeatedPathId(name: keyof typeof ID_LIMITS): { required: false; schema: JsonSchema } {
  return {
    required: false,
    schema: { type: 'string', maxLength: ID_LIMITS[name], description: `Optional: repeats the path's ${name}, same value only.` },
  };
}

function operationId(no: AccountInterfaceNo): string {
  const name = Object.entries(AccountInterface).find(([, n]) => n === no)![0];
  return name.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The fields of an answer are declared once, as their JSON Schema (typed precisely, `as const`):
 * the OpenAPI document shows that schema, and the view's TypeScript type is read from it
 * (`ViewOf`), so that a field is added in one place.
 */
export const text = { type: 'string' } as const;
/** A nullable string field of an answer. */
export const nullableText = { type: ['string', 'null'] } as const;
/** A field that is always `null` (a password in an answer). */
export const nullField = { type: 'null' } as const;

/** A list of a named schema; `T` is its items' type in a view. */
export type ListSchema<T> = {
  readonly type: 'array';
  readonly items: { readonly $ref: string };
  /** Type only: the items' view (no value at run time). */
  readonly __item?: T;
};

/** The TypeScript value of one field schema. */
type FieldValue<S> = S extends { type: 'null' }
  ? null
  : S extends { type: readonly ['string', 'null'] }
    ? string | null
    : S extends { type: 'string' }
      ? string
      : S extends ListSchema<infer T>
        ? T[]
        : unknown;

/** The view (answer object) whose fields have the schemas of `F`. */
export type ViewOf<F> = { -readonly [K in keyof F]: FieldValue<F[K]> };

/** A closed object schema whose fields are all required (answers always carry every field). */
export function closedObject(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** An array of a named schema of the document (its items of view type `T`). */
export function listOf<T = unknown>(schema: string): ListSchema<T> {
  return { type: 'array', items: { $ref: `#/components/schemas/${schema}` } };
}

/** A count as the answers carry it: digits as text. */
export const countText = { type: 'string', pattern: '^\\d+$' } as const;
