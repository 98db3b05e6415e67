import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CommonCodes, LbsCodes, LbsStat, interfaceSystemError } from '@geoaccount/api';

type Json = Record<string, unknown>;

/** Every `response_code` enum value of a response schema, following `$ref`s and combinations. */
function codesOf(schema: unknown, components: Json, out: Set<string>): Set<string> {
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Json;
  const ref = s.$ref;
  if (typeof ref === 'string') return codesOf(components[ref.split('/').pop() as string], components, out);
  const code = (s.properties as Json | undefined)?.response_code as { enum?: string[] } | undefined;
  for (const value of code?.enum ?? []) out.add(value);
  for (const key of ['oneOf', 'anyOf', 'allOf']) for (const part of (s[key] as unknown[] | undefined) ?? []) codesOf(part, components, out);
  return out;
}

/**
 * Every (code → HTTP statuses) pair the account service may answer: the responses of its
 * published OpenAPI document (the account service owns its codes), the common codes of the
 * envelope, and the system error outside any interface.
 */
function accountTable(): Map<string, Set<number>> {
  const table = new Map<string, Set<number>>();
  const add = (code: string, status: number) => table.set(code, (table.get(code) ?? new Set()).add(status));
  for (const rc of Object.values(CommonCodes)) add(rc.code, rc.status);
  for (const status of [500, 503]) add(interfaceSystemError(undefined, status).code, status);
  const document = JSON.parse(readFileSync(path.resolve(__dirname, '../../../docs/openapi/account.json'), 'utf8')) as Json;
  const components = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  for (const operations of Object.values(document.paths as Json)) {
    for (const operation of Object.values(operations as Json)) {
      const responses = (operation as { responses?: Json }).responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        for (const media of Object.values((response as { content?: Json }).content ?? {})) {
          for (const code of codesOf((media as Json).schema, components, new Set())) add(code, Number(status));
        }
      }
    }
  }
  return table;
}

function lbsTable(): Map<string, Set<number>> {
  const table = new Map<string, Set<number>>();
  for (const rc of Object.values(LbsCodes)) table.set(rc.code, (table.get(rc.code) ?? new Set()).add(rc.status));
  return table;
}

export const ACCOUNT_TABLE = accountTable();
export const LBS_TABLE = lbsTable();

/**
 * What is wrong with an account answer, or `undefined` when it is a valid envelope: a JSON
 * object whose `response_code` is in the table with this HTTP status, and a string
 * `response_message` of at most 32 characters.
 */
export function accountEnvelopeProblem(status: number, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not a JSON object: ${String(body).slice(0, 200)}`;
  const b = body as Record<string, unknown>;
  if (typeof b.response_code !== 'string') return `response_code missing: ${JSON.stringify(b).slice(0, 200)}`;
  const statuses = ACCOUNT_TABLE.get(b.response_code);
  if (!statuses) return `unknown response_code ${b.response_code}`;
  if (!statuses.has(status)) return `response_code ${b.response_code} with HTTP ${status} (table: ${[...statuses].join('/')})`;
  if (typeof b.response_message !== 'string' || b.response_message.length > 32)
    return `bad response_message ${JSON.stringify(b.response_message)}`;
  return undefined;
}

/**
 * What is wrong with a location answer: `code` in the table with this status, a string
 * `resultDesc`, and `lbsStat` 0 on failures, 1 or 2 on success.
 */
export function lbsEnvelopeProblem(status: number, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not a JSON object: ${String(body).slice(0, 200)}`;
  const b = body as Record<string, unknown>;
  if (typeof b.code !== 'string') return `code missing: ${JSON.stringify(b).slice(0, 200)}`;
  const statuses = LBS_TABLE.get(b.code);
  if (!statuses) return `unknown code ${b.code}`;
  if (!statuses.has(status)) return `code ${b.code} with HTTP ${status} (table: ${[...statuses].join('/')})`;
  if (typeof b.resultDesc !== 'string') return `resultDesc missing`;
  const ok = status === 200;
  const stat = b.lbsStat;
  if (ok && stat !== LbsStat.UPSTREAM && stat !== LbsStat.CACHE) return `success with lbsStat ${String(stat)}`;
  if (!ok && stat !== LbsStat.FAILURE) return `failure with lbsStat ${String(stat)}`;
  return undefined;
}
