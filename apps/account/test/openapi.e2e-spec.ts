import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AccountHarness, startAccountHarness } from './support/account-harness';

describe('OpenAPI document', () => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h.close());

  it('serves at /docs-json exactly the committed docs/openapi/account.json (run `pnpm openapi` after a change)', async () => {
    const res = await fetch(`${h.baseUrl}/docs-json`);
    expect(res.status).toBe(200);
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/account.json'), 'utf8'));
    expect(await res.json()).toEqual(committed);
  });
});
