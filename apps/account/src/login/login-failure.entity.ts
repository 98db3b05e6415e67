import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { AppToken } from '../common/app-scope';

/**
 * Recent failed logins of one (app, login id), known user or not, and the lock they
 * caused. Kept in PostgreSQL so the lock holds across instances.
 */
@Entity('login_failures')
@Index('login_failures_last_failed_at_idx', ['lastFailedAt'])
export class LoginFailureEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'login_failures_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'login_failures_pkey' })
  userLoginId!: string;

  /** The times of the failures inside the window, oldest first. */
  @Column({ name: 'failed_at', type: 'timestamptz', array: true, default: () => "'{}'" })
  failedAt!: Date[];

  @Column({ name: 'last_failed_at', type: 'timestamptz' })
  lastFailedAt!: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;
}
