import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { type ParamTable, checkParams } from '@geoaccount/http';
import { ADDRESS_QUERY, BASE_STATION_QUERY, LBS_QUERY } from './lbs/dto/operation-params';
import { locationOpenApiDocument } from './openapi';

type Parameter = { name: string; in: string; required?: boolean; schema: { maxLength?: number; pattern?: string } };

const RULES: Record<string, ParamTable> = { lbsQuery: LBS_QUERY, addressQuery: ADDRESS_QUERY, baseStationQuery: BASE_STATION_QUERY };
/** Parameters of the signature (docs/contract.md §3), checked by the guard, not by the rule tables. */
const SIGNATURE = ['userToken', 'signature'];

function rulesAccept(table: ParamTable, name: string, value: string | undefined): boolean {
  try {
    const query: Record<string, string> = {};
    for (const [n, rule] of Object.entries(table.rules)) if (rule.required && n !== name) query[n] = rule.pattern ? '1' : 'x';
    if (value !== undefined) query[name] = value;
    checkParams(table, query);
    return true;
  } catch {
    return false;
  }
}

function documentAccepts(p: Parameter, value: string | undefined): boolean {
  if (value === undefined || value === '') return !p.required;
  if (p.schema.maxLength !== undefined && [...value].length > p.schema.maxLength) return false;
  return !p.schema.pattern || new RegExp(p.schema.pattern, 'u').test(value);
}

describe('location OpenAPI document', () => {
  let document: OpenAPIObject;
  beforeAll(async () => {
    document = await locationOpenApiDocument();
  });

  it('is the committed docs/openapi/location.json (run `pnpm openapi` after a change)', () => {
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/location.json'), 'utf8'));
    expect(JSON.parse(JSON.stringify(document))).toEqual(committed);
  });

  it.each(Object.keys(RULES))('%s: the document and the rule table agree parameter by parameter', (operation) => {
    const table = RULES[operation]!;
    const rules = table.rules;
    const params = (document.paths[`/lbsapi/api/${operation}`]!.get!.parameters as Parameter[]).filter((p) => !SIGNATURE.includes(p.name));
    expect(params.map((p) => p.name).sort()).toEqual(Object.keys(rules).sort());
    for (const p of params) {
      const rule = rules[p.name]!;
      expect({ name: p.name, in: p.in, required: p.required, maxLength: p.schema.maxLength, pattern: p.schema.pattern }).toEqual({
        name: p.name,
        in: 'query',
        required: rule.required,
        maxLength: rule.max,
        pattern: rule.pattern?.source ?? '^[^:]*$',
      });
      const values = [
        undefined,
        '',
        'x',
        '1',
        '12.5',
        '-0.5',
        '+1',
        '1e3',
        'a:b',
        '字'.repeat(rule.max),
        '字'.repeat(rule.max + 1),
        '1'.repeat(rule.max + 1),
      ];
      for (const value of values) {
        const documented = documentAccepts(p, value);
        const accepted = rulesAccept(table, p.name, value);
        // A range (`limit`) is in the description, not the schema: there the document may accept more.
        if (!documented || rule.limit === undefined)
          expect({ name: p.name, value, accepted }).toEqual({ name: p.name, value, accepted: documented });
      }
    }
  });
});
