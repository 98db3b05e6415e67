import { slowRequest } from '@geoaccount/testing';
import { type LocationSession, startLocation } from './support/location-session';

const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
/** Room for the server's check of expired connections, on a busy machine. */
const SLACK_MS = 1500;

describe('slow clients of the location service (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS)', () => {
  let s: LocationSession;
  let port: number;

  beforeAll(async () => {
    s = await startLocation({ HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) });
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s?.close());

  it('cuts off a client that sends its headers one byte at a time, within the headers timeout', async () => {
    const head = `GET /lbs/v1.0.0/lbsQuery?longitude=116.39 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'x'.repeat(200)}\r\n\r\n`;
    const res = await slowRequest(port, [...head], { everyMs: 100, giveUpMs: 10_000 });
    expect(res.closedAfterMs).toBeDefined();
    expect(res.closedAfterMs!).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(res.closedAfterMs!).toBeLessThan(HEADERS_MS + SLACK_MS);
    expect(res.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client whose body never ends, within the request timeout', async () => {
    const head = 'POST /lbs/v1.0.0/lbsQuery HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n';
    const res = await slowRequest(port, [head, ...'y'.repeat(200)], { everyMs: 100, giveUpMs: 10_000 });
    expect(res.closedAfterMs).toBeDefined();
    expect(res.closedAfterMs!).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(res.closedAfterMs!).toBeLessThan(REQUEST_MS + SLACK_MS);
  });
});
