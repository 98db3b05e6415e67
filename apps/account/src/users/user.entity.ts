import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import type { AppToken } from '../common/app-scope';

/**
 * A user, owned by the app whose token registered it (docs/contract.md §5). The password is kept
 * only as an argon2id hash; `user_auths` / `user_auth_groups` are kept as sent, and their
 * items one per row in `user_auth_links` / `user_group_links`.
 */
@Entity('users')
@Unique('users_app_token_user_id_key', ['appToken', 'userId'])
// The creation-order indexes of the previous version's pages (dropped in a later release).
@Index('users_app_token_user_seq_id_idx', ['appToken', 'userSeqId'])
@Index('users_app_token_org_id_idx', ['appToken', 'orgId', 'userSeqId'])
@Index('users_app_token_app_ord_idx', ['appToken', 'appOrd'])
@Index('users_app_token_org_id_org_ord_idx', ['appToken', 'orgId', 'orgOrd'])
export class UserEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'users_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'users_pkey' })
  userLoginId!: string;

  /** Creation order (internal). */
  @Column({ name: 'user_seq_id', type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', update: false })
  userSeqId!: string;

  /**
   * Position in the app, 1, 2, 3... in registration order, dense: the users list's order and
   * its pages' index range. Numbered by the database (migration `UserOrdinals1767226200000`).
   */
  @Column({ name: 'app_ord', type: 'bigint', insert: false, update: false })
  appOrd!: string;

  /** Position among the app's users of the same `org_id`, dense; `null` without an org. Numbered by the database. */
  @Column({ name: 'org_ord', type: 'bigint', nullable: true, insert: false, update: false })
  orgOrd!: string | null;

  /** Assigned by the service, unique per app. */
  @Column({ name: 'user_id', type: 'varchar', length: 16 })
  userId!: string;

  @Column({ name: 'org_id', type: 'varchar', length: 16, nullable: true })
  orgId!: string | null;

  @Column({ name: 'user_pwd_hash', type: 'varchar', length: 256, nullable: true })
  userPwdHash!: string | null;

  @Column({ name: 'user_name', type: 'varchar', length: 64 })
  userName!: string;

  @Column({ name: 'user_short_name', type: 'varchar', length: 32, nullable: true })
  userShortName!: string | null;

  @Column({ name: 'user_type', type: 'varchar', length: 1 })
  userType!: string;

  @Column({ name: 'is_domain_user', type: 'varchar', length: 1, default: '0' })
  isDomainUser!: string;

  @Column({ name: 'cert_type', type: 'varchar', length: 2, nullable: true })
  certType!: string | null;

  /** Stored encrypted (`PiiCipher`); the entity holds the stored text. */
  @Column({ name: 'cert_id', type: 'text', nullable: true })
  certId!: string | null;

  @Column({ name: 'cert_id_encrypt', type: 'varchar', length: 16, nullable: true })
  certIdEncrypt!: string | null;

  /** Stored encrypted (`PiiCipher`); the entity holds the stored text. */
  @Column({ name: 'user_mobile', type: 'text', nullable: true })
  userMobile!: string | null;

  @Column({ name: 'user_mobile_encrypt', type: 'varchar', length: 16, nullable: true })
  userMobileEncrypt!: string | null;

  @Column({ name: 'user_auths', type: 'varchar', length: 512, nullable: true })
  userAuths!: string | null;

  @Column({ name: 'user_auth_groups', type: 'varchar', length: 512, nullable: true })
  userAuthGroups!: string | null;

  @Column({ name: 'user_extends', type: 'varchar', length: 512, nullable: true })
  userExtends!: string | null;

  @Column({ name: 'create_time', type: 'timestamptz', insert: false, update: false, default: () => 'now()' })
  createTime!: Date;

  @Column({ name: 'update_time', type: 'timestamptz', insert: false, default: () => 'now()' })
  updateTime!: Date;
}
