import { AuthsAndGroups1767225600000 } from './1767225600000-auths-and-groups';
import { UsersAndLogin1767225700000 } from './1767225700000-users-and-login';
import { LoginFailuresUnlogged1767225800000 } from './1767225800000-login-failures-unlogged';
import { AuthSeqPerApp1767225900000 } from './1767225900000-auth-seq-per-app';
import { AuditEvents1767226000000 } from './1767226000000-audit-events';
import { PiiAtRest1767226100000 } from './1767226100000-pii-at-rest';
import { UserOrdinals1767226200000 } from './1767226200000-user-ordinals';
import { ControlPlane1767226300000 } from './1767226300000-control-plane';
import { JobLeases1767226400000 } from './1767226400000-job-leases';
import { PiiKeyIndex1767226500000 } from './1767226500000-pii-key-index';

import { withLockTimeout } from './lock-timeout';

/**
 * Every migration of the account schema, oldest first, each with a `lock_timeout`
 * (`withLockTimeout`). Listed explicitly (no globs) so that
 * the same list works from the TypeScript sources and from `dist`. Append new ones at the end.
 */
export const MIGRATIONS = [
  AuthsAndGroups1767225600000,
  UsersAndLogin1767225700000,
  LoginFailuresUnlogged1767225800000,
  AuthSeqPerApp1767225900000,
  AuditEvents1767226000000,
  PiiAtRest1767226100000,
  UserOrdinals1767226200000,
  ControlPlane1767226300000,
  JobLeases1767226400000,
  PiiKeyIndex1767226500000,
].map((m) => withLockTimeout(m));
