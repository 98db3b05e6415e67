import type { OperatorRole } from '../admin-sessions/admin-principal';

/** A row of `operators` (docs/contract.md §14). */
export interface OperatorRecord {
  login: string;
  role: OperatorRole;
  apps: string[];
  state: 'enabled' | 'disabled';
  /** argon2id hash; `null` for a directory operator. */
  passwordHash: string | null;
  directory: boolean;
  createTime: Date;
  updateTime: Date;
  /** Whether the sign-in lockout holds the login now (read with the row). */
  locked: boolean;
}
