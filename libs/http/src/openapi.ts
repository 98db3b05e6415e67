import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { JsonSchema } from './openapi-schema';

type SecuritySchemeObject = Parameters<DocumentBuilder['addSecurity']>[1];
type ServerVariables = Parameters<DocumentBuilder['addServer']>[2];
/** A `servers` entry of the document. */
export interface ServerObject {
  url: string;
  description?: string;
  variables?: ServerVariables;
}

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';

export interface OpenApiOptions {
  title: string;
  version: string;
  description?: string;
  /**
   * The service reads POST/PUT bodies as form fields as well as JSON: document request bodies
   * as `application/x-www-form-urlencoded` and `multipart/form-data` besides JSON.
   */
  formBodies?: boolean | ((path: string) => boolean);
  /** Where the service answers (`servers` of the document). */
  servers?: ServerObject[];
  /** The request signature: its scheme, and which paths require it (the others declare `security: []`). */
  signature?: { name: string; scheme: SecuritySchemeObject; signed: (path: string) => boolean };
  /**
   * Further security schemes, and the ones (any one suffices) each unsigned path takes; a
   * path with none declares `security: []`.
   */
  otherSecurity?: { schemes: Record<string, SecuritySchemeObject>; of: (path: string) => string[] };
  /** Named schemas the operations refer to (`#/components/schemas/<name>`). */
  schemas?: Record<string, JsonSchema>;
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** Documents the JSON request bodies of the document in the two form encodings too. */
export function useFormBodies(document: OpenAPIObject, which: (path: string) => boolean = () => true): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!which(path)) continue;
    for (const operation of [item.post, item.put, item.patch]) {
      const content = operation?.requestBody && 'content' in operation.requestBody ? operation.requestBody.content : undefined;
      const json = content?.['application/json'];
      if (!content || !json) continue;
      for (const type of FORM_TYPES) content[type] ??= json;
    }
  }
  return document;
}

/**
 * Builds the OpenAPI document from the controllers' decorators and serves it: the UI at
 * `/docs`, the JSON at `/docs-json`. Returns the document.
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const document = buildOpenApiDocument(app, options);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: DOCS_JSON_PATH,
    raw: ['json'],
    customSiteTitle: options.title,
  });
  return document;
}

/**
 * The OpenAPI 3.1 document of an application (which may be created with `preview: true`:
 * only the controllers' metadata is read): the operations from the controllers' decorators,
 * plus servers, the signature's security scheme (`security: []` on unsigned paths) and the
 * named schemas of `options`.
 */
export function buildOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const builder = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle(options.title).setVersion(options.version);
  if (options.description) builder.setDescription(options.description);
  for (const server of options.servers ?? []) builder.addServer(server.url, server.description, server.variables);
  if (options.signature) builder.addSecurity(options.signature.name, options.signature.scheme);
  for (const [name, scheme] of Object.entries(options.otherSecurity?.schemes ?? {})) builder.addSecurity(name, scheme);
  let document = SwaggerModule.createDocument(app, builder.build());
  if (options.formBodies) document = useFormBodies(document, typeof options.formBodies === 'function' ? options.formBodies : undefined);
  const signature = options.signature;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const schemes = signature?.signed(path) ? [signature.name] : (options.otherSecurity?.of(path) ?? []);
      operation.security = schemes.map((name) => ({ [name]: [] }));
    }
  }
  if (options.schemas) {
    document.components ??= {};
    document.components.schemas = {
      ...document.components.schemas,
      ...(options.schemas as NonNullable<typeof document.components.schemas>),
    };
  }
  return document;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** One route of the Express router: method in upper case, path in OpenAPI form (`/auths/{auth_id}`). */
export interface ServedRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

/** Express 5 path syntax (`:id`) to OpenAPI's (`{id}`). */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Every route the initialised application serves, read from the Express router. */
export function servedRoutes(app: INestApplication): ServedRoute[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack?: Layer[] } };
  const routes: ServedRoute[] = [];
  for (const layer of express.router?.stack ?? []) {
    const route = layer.route;
    if (!route || typeof route.path !== 'string') continue;
    for (const [method, on] of Object.entries(route.methods)) {
      if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: toOpenApiPath(route.path) });
    }
  }
  return routes;
}

/** The operations an OpenAPI document lists, in the same form. */
export function documentedRoutes(document: OpenAPIObject): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) if (item[method]) routes.push({ method: method.toUpperCase(), path });
  }
  return routes;
}
