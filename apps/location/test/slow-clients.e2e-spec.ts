import { LATE_MS, printFigure, slowRequest } from '@geoaccount/testing';
import { type LocationSession, startLocation } from './support/location-session';

const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
/**
 * How late past its limit the server may close the connection: its check of expired
 * connections runs every few hundred ms, and a loaded machine delays timers by seconds. Without
 * the timeouts Node's own defaults (60 s / 300 s) would keep the connection open far longer.
 */
const SLACK_MS = LATE_MS;
/** The client sends one byte every 100 ms (its headers or body take ~20 s) and gives up after this. */
const GIVE_UP_MS = REQUEST_MS + SLACK_MS + 3000;

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
    const res = await slowRequest(port, [...head], { everyMs: 100, giveUpMs: GIVE_UP_MS });
    printFigure(`slow headers: closed after (limit ${HEADERS_MS} ms)`, res.closedAfterMs ?? Number.NaN);
    expect(res.closedAfterMs).toBeDefined();
    expect(res.closedAfterMs!).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(res.closedAfterMs!).toBeLessThan(HEADERS_MS + SLACK_MS);
    expect(res.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client whose body never ends, within the request timeout', async () => {
    const head = 'POST /lbs/v1.0.0/lbsQuery HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n';
    const res = await slowRequest(port, [head, ...'y'.repeat(200)], { everyMs: 100, giveUpMs: GIVE_UP_MS });
    printFigure(`endless body: closed after (limit ${REQUEST_MS} ms)`, res.closedAfterMs ?? Number.NaN);
    expect(res.closedAfterMs).toBeDefined();
    expect(res.closedAfterMs!).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(res.closedAfterMs!).toBeLessThan(REQUEST_MS + SLACK_MS);
  });
});
