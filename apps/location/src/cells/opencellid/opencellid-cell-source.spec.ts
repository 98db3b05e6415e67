import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { UpstreamUnavailableError } from '../../upstream/upstream-errors';
import { TransientUpstreamError, UpstreamPolicy } from '../../upstream/upstream-policy';
import { OpenCellIdCellSource, parseOpenCellId } from './opencellid-cell-source';

describe('OpenCelliD API adapter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('reads a cell, "cell not found" as null, and errors by code', () => {
    expect(
      parseOpenCellId({ lon: 116.391275, lat: 39.907501, mcc: 460, mnc: 0, lac: 4000, cellid: 10000, range: 1500, radio: 'GSM' }),
    ).toEqual({
      longitude: 116.391275,
      latitude: 39.907501,
      range: 1500,
    });
    expect(parseOpenCellId({ error: 'Cell not found', code: 1 })).toBeNull();
    expect(() => parseOpenCellId({ error: 'API key invalid', code: 2 })).toThrow(UpstreamUnavailableError);
    expect(() => parseOpenCellId({ error: 'Internal error', code: 5 })).toThrow(TransientUpstreamError);
    expect(() => parseOpenCellId({ lon: 'x' })).toThrow(UpstreamUnavailableError);
  });

  it('asks /cell/get with the key and the cell', async () => {
    const asked: URLSearchParams[] = [];
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      asked.push(url.searchParams);
      const found = url.pathname === '/cell/get' && url.searchParams.get('cellid') === '10000';
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(found ? { lon: 116.39, lat: 39.9, range: 800 } : { error: 'Cell not found', code: 1 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const source = new OpenCellIdCellSource(
      { key: 'pk.test', baseUrl, userAgent: 'ua' },
      new UpstreamPolicy({ name: 'opencellid', timeoutMs: 2000, retries: 0, breakerFailures: 5, breakerCooldownMs: 1000 }),
    );
    try {
      await expect(source.locate({ mcc: 460, mnc: 0, lac: 4000, cellid: 10000 })).resolves.toEqual({
        longitude: 116.39,
        latitude: 39.9,
        range: 800,
      });
      await expect(source.locate({ mcc: 460, mnc: 0, lac: 4000, cellid: 1 })).resolves.toBeNull();
      expect(Object.fromEntries(asked[0]!)).toEqual({ key: 'pk.test', mcc: '460', mnc: '0', lac: '4000', cellid: '10000', format: 'json' });
    } finally {
      await source.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
