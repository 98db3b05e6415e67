import type { DataSource } from 'typeorm';
import type { AppsRepository } from '../apps/apps.repository';
import { AuditEventsRepository } from '../audit/audit-events.repository';
import type { CredentialsRepository } from '../credentials/credentials.repository';
import { UsersRepository } from '../users/users.repository';
import { ALL_APPS, appTokenOf, asAppToken } from './app-scope';

/**
 * The scope is checked by the compiler (`pnpm typecheck` compiles this file): each
 * `@ts-expect-error` below fails the typecheck if the call it marks ever compiles.
 */
function unscopedCallsDoNotCompile(users: UsersRepository, events: AuditEventsRepository): void {
  // @ts-expect-error a plain string is no scope: an unscoped query does not compile
  void users.findOne('app-7f3a9c2e41d08b56', 'alice');
  // @ts-expect-error a method of one app's rows does not take the all-apps scope
  void users.findOne(ALL_APPS, 'alice');
  // A cross-app read says so.
  void events.page(ALL_APPS, {}, 'UTC', 100);
  void events.page(asAppToken('app-7f3a9c2e41d08b56'), {}, 'UTC', 100);
}

/** The control plane's repositories: one app's rows take its `AppToken`, a cross-app read `ALL_APPS`. */
function controlPlaneScopes(apps: AppsRepository, credentials: CredentialsRepository): void {
  // @ts-expect-error a plain string is no scope
  void apps.find('app-7f3a9c2e41d08b56');
  // @ts-expect-error the list of apps says which: some apps, or every one
  void apps.list();
  // @ts-expect-error plain strings are no scope
  void apps.list(['app-7f3a9c2e41d08b56']);
  // @ts-expect-error a plain string is no scope
  void credentials.listOf(['app-7f3a9c2e41d08b56']);
  // @ts-expect-error what every instance loads crosses apps, and says so
  void credentials.active();
  void apps.find(asAppToken('app-7f3a9c2e41d08b56'));
  void apps.list(ALL_APPS);
  void apps.list([asAppToken('app-7f3a9c2e41d08b56')]);
  void credentials.active(ALL_APPS);
}

describe('app scope', () => {
  it('is the verified app token itself at run time, or a distinct all-apps symbol', () => {
    const app = { appToken: 'app-7f3a9c2e41d08b56' } as Parameters<typeof appTokenOf>[0];
    expect(appTokenOf(app)).toBe('app-7f3a9c2e41d08b56');
    expect(asAppToken('app-1')).toBe('app-1');
    expect(typeof ALL_APPS).toBe('symbol');
    expect(typeof unscopedCallsDoNotCompile).toBe('function');
    expect(typeof controlPlaneScopes).toBe('function');
    expect(new UsersRepository({ getMetadata: () => ({ columns: [] }) } as unknown as DataSource)).toBeInstanceOf(UsersRepository);
  });
});
