import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { type Fixture, createFixtureApp, signedFields } from '../test/fixture-app';

describe('JSON answers', () => {
  let fixture: Fixture;
  let app: INestApplication;
  beforeAll(async () => {
    fixture = await createFixtureApp();
    app = fixture.app;
  });
  afterAll(() => app.close());

  it('are written as Express writes them: type with charset, length in bytes', async () => {
    const query = signedFields('GET', `/things/${encodeURIComponent('用户🚀')}`, {}, { thing_id: '用户🚀' });
    const res = await request(app.getHttpServer())
      .get(`/things/${encodeURIComponent('用户🚀')}`)
      .query(query);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify({ response_code: '90000', response_message: 'success', thing_id: '用户🚀' }));
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const get = await request(app.getHttpServer()).get('/open/slow');
    const head = await request(app.getHttpServer()).head('/open/slow');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.text ?? '').toBe('');
  });

  it('carry the error envelopes of the exception filter too', async () => {
    const res = await request(app.getHttpServer()).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body).toMatchObject({ response_code: expect.any(String) });
  });
});
