import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import type { AppToken } from '../common/app-scope';

/** A permission, owned by the app whose token created it (docs/contract.md §5). */
@Entity('auths')
@Index('auths_app_token_auth_state_idx', ['appToken', 'authState'])
@Index('auths_app_token_auth_type_idx', ['appToken', 'authType'])
@Index('auths_app_token_auth_level_idx', ['appToken', 'authLevel'])
@Index('auths_app_token_parent_auth_id_idx', ['appToken', 'parentAuthId'])
@Unique('auths_app_token_auth_seq_id_key', ['appToken', 'authSeqId'])
export class AuthEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'auths_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'auth_id', type: 'varchar', length: 16, primaryKeyConstraintName: 'auths_pkey' })
  authId!: string;

  /** 1, 2, 3... per app, set by the `auths_seq_id` trigger on insert; a numeric string (bigint). */
  @Column({ name: 'auth_seq_id', type: 'bigint', insert: false, update: false })
  authSeqId!: string;

  @Column({ name: 'auth_name', type: 'varchar', length: 64 })
  authName!: string;

  @Column({ name: 'auth_desc', type: 'varchar', length: 64, nullable: true })
  authDesc!: string | null;

  @Column({ name: 'auth_state', type: 'varchar', length: 1, nullable: true })
  authState!: string | null;

  @Column({ name: 'auth_type', type: 'varchar', length: 8, nullable: true })
  authType!: string | null;

  @Column({ name: 'auth_level', type: 'varchar', length: 2, nullable: true })
  authLevel!: string | null;

  @Column({ name: 'parent_auth_id', type: 'varchar', length: 16, nullable: true })
  parentAuthId!: string | null;

  @Column({ name: 'sub_auth_flag', type: 'varchar', length: 1, nullable: true })
  subAuthFlag!: string | null;

  @Column({ name: 'create_time', type: 'timestamptz', insert: false, update: false, default: () => 'now()' })
  createTime!: Date;

  @Column({ name: 'update_time', type: 'timestamptz', insert: false, default: () => 'now()' })
  updateTime!: Date;
}
