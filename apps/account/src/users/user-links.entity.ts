import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One auth of a user's `user_auths`. Foreign keys to the user and to the auth of the same
 * app keep the list referentially sound (migration `UsersAndLogin`).
 */
@Entity('user_auth_links')
@Index('user_auth_links_app_token_auth_id_idx', ['appToken', 'authId'])
export class UserAuthLinkEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'user_auth_links_pkey' })
  appToken!: string;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_auth_links_pkey' })
  userLoginId!: string;

  @PrimaryColumn({ name: 'auth_id', type: 'varchar', length: 16, primaryKeyConstraintName: 'user_auth_links_pkey' })
  authId!: string;
}

/** One group of a user's `user_auth_groups`, with foreign keys like `UserAuthLinkEntity`. */
@Entity('user_group_links')
@Index('user_group_links_app_token_group_id_idx', ['appToken', 'groupId'])
export class UserGroupLinkEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'user_group_links_pkey' })
  appToken!: string;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_group_links_pkey' })
  userLoginId!: string;

  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_group_links_pkey' })
  groupId!: string;
}
