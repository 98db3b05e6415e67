import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCOUNT_ANSWER_FIELDS, AUDIT_EVENT_FIELDS, AUTH_LIST_ITEM_FIELDS, AUTH_SUMMARY_FIELDS, GROUP_LIST_ITEM_FIELDS, LBS_ANSWER_FIELDS, USER_FIELDS } from './types';

/**
 * The SDK's answer types against the OpenAPI documents the services serve (committed in
 * docs/openapi, themselves checked against the running services): one source of truth.
 */
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; required?: string[] };
interface Document {
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components?: { schemas?: Record<string, Schema> };
}

const load = (name: string) => JSON.parse(readFileSync(join(__dirname, `../../../docs/openapi/${name}.json`), 'utf8')) as Document;

function successSchemas(doc: Document): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const op of Object.values(ops)) {
      const ok = op.responses['200'] ?? op.responses['201'];
      const schema = ok?.content?.['application/json']?.schema;
      if (schema) out.set(op.operationId ?? path, schema);
    }
  }
  return out;
}

function resolve(doc: Document, schema: Schema): Schema {
  return schema.$ref ? doc.components!.schemas![schema.$ref.replace('#/components/schemas/', '')]! : schema;
}
const fieldsOf = (doc: Document, schema: Schema) => Object.keys(resolve(doc, schema).properties ?? {}).sort();

describe('answer types of the SDK against the OpenAPI documents', () => {
  const account = load('account');
  const accountOps = successSchemas(account);

  it.each(Object.keys(ACCOUNT_ANSWER_FIELDS))('account %s: the same fields', (op) => {
    const schema = accountOps.get(op);
    expect(schema).toBeDefined();
    expect(fieldsOf(account, schema!)).toEqual([...new Set(ACCOUNT_ANSWER_FIELDS[op as keyof typeof ACCOUNT_ANSWER_FIELDS])].sort());
  });

  it('account list items and nested records: the same fields', () => {
    const item = (op: string, list: string) => fieldsOf(account, resolve(account, accountOps.get(op)!).properties![list]!.items!);
    expect(item('listAuths', 'list')).toEqual([...AUTH_LIST_ITEM_FIELDS].sort());
    expect(item('listGroups', 'group_list')).toEqual([...GROUP_LIST_ITEM_FIELDS].sort());
    expect(item('listUsers', 'user_list')).toEqual([...USER_FIELDS].sort());
    expect(item('userAuths', 'list')).toEqual([...AUTH_SUMMARY_FIELDS].sort());
    expect(item('getGroup', 'group_auth_detail')).toEqual([...AUTH_SUMMARY_FIELDS].sort());
    expect(item('auditEvents', 'event_list')).toEqual([...AUDIT_EVENT_FIELDS].sort());
  });

  const location = load('location');
  const locationOps = successSchemas(location);
  it.each(Object.keys(LBS_ANSWER_FIELDS))('location %s: the same fields', (op) => {
    const schema = [...locationOps.entries()].find(([id]) => id === op || id.endsWith(`/${op}`))?.[1];
    expect(schema).toBeDefined();
    expect(fieldsOf(location, schema!)).toEqual([...LBS_ANSWER_FIELDS[op as keyof typeof LBS_ANSWER_FIELDS]].sort());
  });
});
