import request from 'supertest';
import { type Fixture, createFixtureApp } from '../test/fixture-app';
import { documentedRoutes, servedRoutes, toOpenApiPath } from '@geoaccount/http';

// libs/http's OpenAPI setup and security headers, applied with this library's operations (`applyOperations`).
describe('OpenAPI and HTTP hardening', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixtureApp({
      openApi: { title: 'Fixture service', version: '1.0.0', description: 'test', formBodies: true },
    });
  });
  afterAll(() => fixture.app.close());
  const http = () => request(fixture.app.getHttpServer());

  it('serves the UI at /docs and the document at /docs-json', async () => {
    const ui = await http().get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect(ui.text).toContain('<title>Fixture service</title>');
    const init = await http().get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('swagger');

    const doc = await http().get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({
      openapi: expect.stringMatching(/^3\./),
      info: { title: 'Fixture service', version: '1.0.0', description: 'test' },
    });
  });

  it('lists every route the application serves, and no other', async () => {
    const doc = (await http().get('/docs-json')).body;
    const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
    const served = servedRoutes(fixture.app)
      .map(key)
      .filter((k) => !k.includes('{/*splat}'));
    expect(served).toEqual(
      expect.arrayContaining(['POST /things', 'GET /things/{thing_id}', 'POST /things/fail', 'GET /open/slow', 'GET /metrics']),
    );
    const documented = documentedRoutes(doc).map(key);
    // the document's own routes are served but not part of the API
    const api = served.filter((k) => !k.startsWith('GET /docs'));
    expect([...documented].sort()).toEqual([...api].sort());
  });

  it('documents form bodies besides JSON', async () => {
    const doc = (await http().get('/docs-json')).body;
    const content = doc.paths['/things'].post.requestBody.content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/SecretsDto' });
  });

  it('sends the headers of a JSON API on API answers, and nothing for pages', async () => {
    for (const path of ['/open/slow', '/nowhere', '/docs-json']) {
      const res = await http().get(path);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
      for (const page of [
        'x-powered-by',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-xss-protection',
      ]) {
        expect(res.headers[page]).toBeUndefined();
      }
    }
  });

  it('lets the documentation page load its own scripts and styles', async () => {
    const res = await http().get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('converts Express paths to OpenAPI paths', () => {
    expect(toOpenApiPath('/account/v1.0.1/users/:user_login_id/auths/:auth_id')).toBe(
      '/account/v1.0.1/users/{user_login_id}/auths/{auth_id}',
    );
  });
});
