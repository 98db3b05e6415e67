import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/** The parts of an OpenAPI 3.1 document the validator reads. */
interface MediaType {
  schema?: Record<string, unknown>;
}
interface Operation {
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | unknown>>;
  components?: Record<string, unknown>;
}

/** An answer to check: what the transport received. */
export interface CheckedResponse {
  method: string;
  /** Absolute URL or path, with or without a query string. */
  url: string;
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

interface Route {
  path: string;
  pattern: RegExp;
  /** Literal segments: a literal route wins over a templated one (`/users/login/{id}`). */
  literals: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Checks answers against the operation and status they belong to in an OpenAPI 3.1 document:
 * the status must be documented, the content type one the status documents, and the body
 * must match that media type's schema (JSON Schema 2020-12, with ajv). Answers to paths or
 * methods the document does not list (an unknown route on purpose) are not checked.
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();
  /** `METHOD path status` of every answer checked (for `uncovered`). */
  readonly seen = new Set<string>();

  constructor(private readonly document: OpenApiDocument) {
    this.routes = Object.keys(document.paths)
      .map((path) => {
        const segments = path.split('/');
        const source = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
        return { path, pattern: new RegExp(`^${source}$`), literals: segments.filter((s) => !s.startsWith('{')).length };
      })
      .sort((a, b) => b.literals - a.literals);
  }

  static fromFile(file: string): OpenApiResponseValidator {
    return new OpenApiResponseValidator(JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
  }

  /** The documented path of a request path, if any. */
  route(method: string, url: string): string | undefined {
    const pathname = new URL(url, 'http://localhost').pathname;
    const found = this.routes.find((r) => r.pattern.test(pathname) && this.operation(r.path, method));
    return found?.path;
  }

  /**
   * What is wrong with an answer: `[]` when it matches its documented schema, `undefined` when
   * the document has no operation for its method and path.
   */
  problems(response: CheckedResponse): string[] | undefined {
    const path = this.route(response.method, response.url);
    if (path === undefined) return undefined;
    const method = response.method.toLowerCase();
    const operation = this.operation(path, method)!;
    const where = `${response.method.toUpperCase()} ${path} ${response.status}`;
    this.seen.add(where);
    const documented = operation.responses?.[String(response.status)] ?? operation.responses?.default;
    if (!documented) return [`${where}: status not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
    const content = documented.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0) return [];
    const header = headerOf(response.headers, 'content-type') ?? '';
    const type = header.split(';')[0]!.trim().toLowerCase();
    if (!types.includes(type)) return [`${where}: content-type "${header}" not documented (documented: ${types.join(', ')})`];
    const schema = content[type]!.schema;
    if (!schema) return [];
    const validate = this.validator(`${method} ${path} ${response.status} ${type}`, schema);
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message ?? 'is invalid'}${paramsText(e.params)}`);
  }

  /** Throws an error listing the problems of an answer that does not match its documented schema. */
  check(response: CheckedResponse): void {
    const problems = this.problems(response);
    if (problems && problems.length > 0) {
      throw new Error(`answer does not match the OpenAPI document:\n${problems.join('\n')}\nbody: ${JSON.stringify(response.body)}`);
    }
  }

  /** Every documented `METHOD path status` of the document. */
  documented(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.document.paths)) {
      for (const method of METHODS) {
        const operation = item[method] as Operation | undefined;
        for (const status of Object.keys(operation?.responses ?? {})) out.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    return out;
  }

  private operation(path: string, method: string): Operation | undefined {
    const m = method.toLowerCase();
    if (!METHODS.includes(m)) return undefined;
    return this.document.paths[path]?.[m] as Operation | undefined;
  }

  private validator(key: string, schema: Record<string, unknown>): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      // `#/components/...` references resolve against the compiled schema's root.
      validate = this.ajv.compile({ ...schema, components: this.document.components ?? {} });
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function headerOf(headers: CheckedResponse['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function paramsText(params: Record<string, unknown>): string {
  const extra = params.additionalProperty ?? params.missingProperty ?? params.allowedValues;
  return extra === undefined ? '' : ` (${JSON.stringify(extra)})`;
}

/**
 * Keeps what a test file's answers covered in `dir` (one file per test file: the documented
 * answers and the ones seen), so that the run's global teardown can say which documented
 * statuses no test answered.
 */
export function saveCoverage(validator: OpenApiResponseValidator, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify({ documented: validator.documented(), seen: [...validator.seen] }));
}
