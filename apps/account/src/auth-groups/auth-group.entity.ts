import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import type { AppToken } from '../common/app-scope';

/** A permission group, owned by the app whose token created it (docs/contract.md §5). */
@Entity('auth_groups')
@Unique('auth_groups_group_seq_id_key', ['groupSeqId'])
export class AuthGroupEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'auth_groups_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'auth_groups_pkey' })
  groupId!: string;

  /** Creation order (internal). */
  @Column({ name: 'group_seq_id', type: 'bigint', insert: false, update: false, default: () => "nextval('auth_group_seq_id_seq')" })
  groupSeqId!: string;

  @Column({ name: 'group_name', type: 'varchar', length: 64 })
  groupName!: string;

  @Column({ name: 'group_desc', type: 'varchar', length: 64, nullable: true })
  groupDesc!: string | null;

  @Column({ name: 'group_type', type: 'varchar', length: 32, nullable: true })
  groupType!: string | null;

  @Column({ name: 'group_state', type: 'varchar', length: 1, nullable: true })
  groupState!: string | null;

  /** The comma-separated auth ids exactly as sent; the rows of `auth_group_auths` hold them one by one. */
  @Column({ name: 'group_auths', type: 'varchar', length: 1024, nullable: true })
  groupAuths!: string | null;

  @Column({ name: 'create_time', type: 'timestamptz', insert: false, update: false, default: () => 'now()' })
  createTime!: Date;

  @Column({ name: 'update_time', type: 'timestamptz', insert: false, default: () => 'now()' })
  updateTime!: Date;
}
