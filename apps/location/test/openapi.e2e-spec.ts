import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocationSession, startLocation } from './support/location-session';

describe('OpenAPI document', () => {
  let s: LocationSession;
  beforeAll(async () => {
    s = await startLocation({});
  });
  afterAll(() => s.close());

  it('serves at /docs-json exactly the committed docs/openapi/location.json (run `pnpm openapi` after a change)', async () => {
    const res = await fetch(`${s.url}/docs-json`);
    expect(res.status).toBe(200);
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/location.json'), 'utf8'));
    expect(await res.json()).toEqual(committed);
  });
});
