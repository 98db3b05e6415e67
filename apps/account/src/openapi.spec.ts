import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { OpenAPIObject } from '@nestjs/swagger';
import { CreateGroupDto } from './auth-groups/dto/create-group.dto';
import { ListGroupsQuery } from './auth-groups/dto/list-groups.query';
import { ModifyGroupDto } from './auth-groups/dto/modify-group.dto';
import { CreateAuthDto } from './auths/dto/create-auth.dto';
import { ListAuthsQuery } from './auths/dto/list-auths.query';
import { ModifyAuthDto } from './auths/dto/modify-auth.dto';
import { SIGNATURE_FIELDS } from './common/account-openapi';
import { ID_LIMITS } from './common/path-id';
import { LoginDto } from './login/dto/login.dto';
import { accountOpenApiDocument } from './openapi';
import { ListUsersQuery } from './users/dto/list-users.query';
import { ModifyUserDto } from './users/dto/modify-user.dto';
import { RegisterUserDto } from './users/dto/register-user.dto';

type Schema = { type?: string; maxLength?: number; minLength?: number; enum?: string[]; pattern?: string; description?: string };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, Schema>; required?: string[] } }> };
};

/** The DTO class that validates each operation's body or query. */
const DTOS: Record<string, new () => object> = {
  createAuth: CreateAuthDto,
  modifyAuth: ModifyAuthDto,
  listAuths: ListAuthsQuery,
  createGroup: CreateGroupDto,
  modifyGroup: ModifyGroupDto,
  listGroups: ListGroupsQuery,
  registerUser: RegisterUserDto,
  modifyUser: ModifyUserDto,
  listUsers: ListUsersQuery,
  login: LoginDto,
};

/** The fields an operation documents (body or query), without the signature's and the path ids. */
function documentedFields(op: Operation): { name: string; required: boolean; schema: Schema }[] {
  const body = op.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  const fields = body
    ? Object.entries(body.properties).map(([name, schema]) => ({ name, required: (body.required ?? []).includes(name), schema }))
    : (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema }));
  // the signature's fields and the path ids a request may repeat are checked by the guard, not the DTO
  return fields.filter((f) => !(f.name in SIGNATURE_FIELDS) && !(f.name in ID_LIMITS));
}

/** Whether the DTO's rules accept `value` for `field` (undefined: the field absent). */
function rulesAccept(dto: new () => object, field: string, value: string | undefined): boolean {
  const errors = validateSync(plainToInstance(dto, value === undefined ? {} : { [field]: value }));
  return !errors.some((e) => e.property === field);
}

/** Whether the document's schema accepts a text. */
function documentAccepts(schema: Schema, value: string): boolean {
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return false;
  return true;
}

/** Texts around each documented limit, plus forms the id and list rules care about. */
function samples(schema: Schema): string[] {
  const out = ['', 'a', '0', '1', '12', 'x1', ' a', 'a ', 'a,b', 'a\u0001b', '{}', '{"k":"v"}', '-1'];
  out.push(...(schema.enum ?? []), 'not-in-enum');
  if (schema.maxLength !== undefined) {
    for (const c of ['x', '1', '字']) out.push(c.repeat(schema.maxLength), c.repeat(schema.maxLength + 1));
  }
  return out;
}

/** A note in the description other than "empty: unset" or "no NUL character": a rule the schema cannot express. */
function hasUnexpressedRule(schema: Schema): boolean {
  const notes = (schema.description ?? '').replace(/\.$/, '').split('; ');
  return notes.some((n) => n !== '' && n !== 'empty: unset' && n !== 'no NUL character');
}

describe('account OpenAPI document', () => {
  let document: OpenAPIObject;
  beforeAll(async () => {
    document = await accountOpenApiDocument();
  });

  it('is the committed docs/openapi/account.json (run `pnpm openapi` after a change)', () => {
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/account.json'), 'utf8'));
    expect(JSON.parse(JSON.stringify(document))).toEqual(committed);
  });

  const operations = () =>
    Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, Operation>).filter((op) => op.operationId in DTOS),
    );

  it('documents every operation that validates fields', () => {
    expect(
      operations()
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(Object.keys(DTOS).sort());
  });

  it.each(Object.keys(DTOS))('%s: the document and the validation rules agree field by field', (operationId) => {
    const op = operations().find((o) => o.operationId === operationId)!;
    const dto = DTOS[operationId]!;
    const fields = documentedFields(op);
    // the same field names as the rules check
    const ruled = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    );
    expect(fields.map((f) => f.name).sort()).toEqual([...ruled].sort());
    for (const field of fields) {
      const loose = hasUnexpressedRule(field.schema);
      // required-ness: a required field may not be absent; an optional one may (unless a rule the schema notes says otherwise)
      if (field.required) expect([field.name, rulesAccept(dto, field.name, undefined)]).toEqual([field.name, false]);
      else if (!loose) expect([field.name, rulesAccept(dto, field.name, undefined)]).toEqual([field.name, true]);
      for (const value of samples(field.schema)) {
        const documented = documentAccepts(field.schema, value);
        const accepted = rulesAccept(dto, field.name, value);
        // What the document refuses, the rules refuse; what it accepts, they accept unless a noted rule refuses it.
        if (!documented || !loose)
          expect({ field: field.name, value, accepted }).toEqual({ field: field.name, value, accepted: documented });
      }
    }
  });
});
