/**
 * Reads of the audit trail on the real repository: an app's scope sees only its events, the
 * all-apps scope (an operator's cross-app read) sees every app's (docs/contract.md §10, §14).
 */
import { ALL_APPS } from '../../src/common/app-scope';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, APP_B, type AccountServices, accountServices, seedAuth } from './medium.factory';

let db: MediumDatabase;
let s: AccountServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = accountServices(db);
  await seedAuth(s, APP_A, 'A-ONE');
  await seedAuth(s, APP_B, 'B-ONE');
});
afterAll(() => db?.close());

describe('audit trail scopes', () => {
  it("an app's scope reads only that app's events", async () => {
    expect((await s.events.page(APP_A.appToken, {})).events.map((e) => [e.app_token, e.resource_id])).toEqual([[APP_A.appToken, 'A-ONE']]);
    expect((await s.events.page(APP_B.appToken, {})).events.map((e) => e.resource_id)).toEqual(['B-ONE']);
  });

  it('the all-apps scope reads every app, oldest first, and filters the same way', async () => {
    const rows = await s.repositories.events.page(ALL_APPS, {}, 'UTC', 100);
    expect(rows.map((r) => [r.app_token, r.resource_id])).toEqual([
      [APP_A.appToken, 'A-ONE'],
      [APP_B.appToken, 'B-ONE'],
    ]);
    expect((await s.repositories.events.page(ALL_APPS, { resourceId: 'B-ONE' }, 'UTC', 100)).map((r) => r.app_token)).toEqual([
      APP_B.appToken,
    ]);
  });
});
