import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

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
  formBodies?: boolean;
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** Documents the JSON request bodies of the document in the two form encodings too. */
export function useFormBodies(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
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
  const builder = new DocumentBuilder().setTitle(options.title).setVersion(options.version);
  if (options.description) builder.setDescription(options.description);
  let document = SwaggerModule.createDocument(app, builder.build());
  if (options.formBodies) document = useFormBodies(document);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: DOCS_JSON_PATH,
    raw: ['json'],
    customSiteTitle: options.title,
  });
  return document;
}

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
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
  const routes: ServedRoute[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) if (item[method]) routes.push({ method: method.toUpperCase(), path });
  }
  return routes;
}
