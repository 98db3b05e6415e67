// `@geoaccount/client/internal`: what the workspace's own tests use besides the published API —
// clients whose calls take any fields and the tweaks of a test (unsigned fields, another
// signature or timestamp, …). Not a stable API: no semver promise covers it.
export { AccountTransport, TestAccountClient, accountPath, type Fields, type Method, type PathIdField, type RequestTweaks } from './account-transport';
export { LbsTransport, TestLbsClient, type LbsTweaks } from './lbs-client';
