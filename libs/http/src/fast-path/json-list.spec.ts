import { once } from 'node:events';
import { type AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import request from 'supertest';
import { sentBody } from './json-answer';
import { writeJsonList } from './json-list';

type Items = (res: Response) => Iterable<unknown> | AsyncIterable<unknown>;

function appWith(items: Items, seen: unknown[] = []) {
  const app = express();
  app.get('/list', (_req, res, next) => {
    writeJsonList(res, { response_code: '90000', count: 'n' }, 'list', items(res))
      .then(() => seen.push(sentBody(res)))
      .catch((err: unknown) => res.status(503).json({ failed: (err as Error).message }))
      .catch(next);
  });
  return app;
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `auth-${i}`, name: `权限 ${i} "quoted" \\ ${'x'.repeat(i % 50)}` }));

describe('writeJsonList', () => {
  it('writes the same bytes as one JSON answer, and keeps the head as the sent body', async () => {
    const seen: unknown[] = [];
    const res = await request(appWith(() => rows(3), seen)).get('/list');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify({ response_code: '90000', count: 'n', list: rows(3) }));
    expect(seen).toEqual([{ response_code: '90000', count: 'n' }]);
  });

  it('writes a long list in chunks that make the same JSON', async () => {
    const many = rows(20_000);
    const res = await request(appWith(() => many)).get('/list');
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.text).toBe(JSON.stringify({ response_code: '90000', count: 'n', list: many }));
  });

  it('answers an empty list as an empty array', async () => {
    const res = await request(appWith(() => [])).get('/list');
    expect(res.body).toEqual({ response_code: '90000', count: 'n', list: [] });
  });

  it('lets a failure before the first item reach the caller, who still answers', async () => {
    const failing: AsyncIterable<unknown> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('no rows today')) }),
    };
    const res = await request(appWith(() => failing)).get('/list');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ failed: 'no rows today' });
  });

  it('closes the connection when a failure comes after the answer started', async () => {
    function* failingLate(): Generator<unknown> {
      yield* rows(5_000);
      throw new Error('lost the database');
    }
    await expect(request(appWith(() => failingLate())).get('/list')).rejects.toThrow();
  });

  it('stops making items when the client goes away, and returns', async () => {
    let made = 0;
    async function* slow(res: Response): AsyncGenerator<unknown> {
      for (;;) {
        made++;
        if (made === 3) {
          // the client is gone, and the response knows it, before the next item is written
          res.req.socket.destroy();
          if (!res.closed) await once(res, 'close');
        }
        yield { id: made, pad: 'y'.repeat(70_000) };
      }
    }
    const seen: unknown[] = [];
    const server = appWith(slow, seen).listen(0);
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/list`)
        .then((r) => r.text())
        .catch(() => 'aborted');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(made).toBe(3);
      expect(seen).toHaveLength(1); // the writer returned
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
