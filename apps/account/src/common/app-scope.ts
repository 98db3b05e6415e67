import type { RegisteredApp } from '@geoaccount/signing';

declare const APP_TOKEN: unique symbol;

/**
 * The app a query is scoped to (docs/contract.md §5). Repository methods take an `AppToken`, not
 * a `string`, so that a query without its app does not compile: a token becomes an `AppToken`
 * only from the verified caller of a request (`appTokenOf`) or, in a test or a tool, by
 * `asAppToken` said out loud.
 */
export type AppToken = string & { readonly [APP_TOKEN]: true };

/** The app of a verified request. */
export function appTokenOf(app: RegisteredApp): AppToken {
  return app.appToken as AppToken;
}

/** A token known to be an app's (a test, a tool, a row read back), made a scope explicitly. */
export function asAppToken(token: string): AppToken {
  return token as AppToken;
}

/**
 * Every app: the scope of a cross-app read (an operator's, through the admin API). A method
 * that accepts it types its scope `AppScope`; one that does not cannot be called with it.
 */
export const ALL_APPS = Symbol('all apps');
export type AllApps = typeof ALL_APPS;
export type AppScope = AppToken | AllApps;

/** The app of an admin-level audit event (operators, sessions): none, `""` (docs/contract.md §14). */
export const NO_APP = '' as AppToken;
