import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AuthGroupEntity } from '../auth-groups/auth-group.entity';
import { AuthEntity } from '../auths/auth.entity';
import { UserEntity } from './user.entity';
import type { AppToken } from '../common/app-scope';

/**
 * One auth of a user's `user_auths`. Foreign keys to the user and to the auth of the same
 * app keep the list referentially sound.
 */
@Entity('user_auth_links')
@Index('user_auth_links_app_token_auth_id_idx', ['appToken', 'authId'])
export class UserAuthLinkEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'user_auth_links_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_auth_links_pkey' })
  userLoginId!: string;

  @PrimaryColumn({ name: 'auth_id', type: 'varchar', length: 16, primaryKeyConstraintName: 'user_auth_links_pkey' })
  authId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'user_auth_links_user_fkey' },
    { name: 'user_login_id', referencedColumnName: 'userLoginId', foreignKeyConstraintName: 'user_auth_links_user_fkey' },
  ])
  user?: UserEntity;

  @ManyToOne(() => AuthEntity)
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'user_auth_links_auth_fkey' },
    { name: 'auth_id', referencedColumnName: 'authId', foreignKeyConstraintName: 'user_auth_links_auth_fkey' },
  ])
  auth?: AuthEntity;
}

/** One group of a user's `user_auth_groups`, with foreign keys like `UserAuthLinkEntity`. */
@Entity('user_group_links')
@Index('user_group_links_app_token_group_id_idx', ['appToken', 'groupId'])
export class UserGroupLinkEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'user_group_links_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'user_login_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_group_links_pkey' })
  userLoginId!: string;

  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'user_group_links_pkey' })
  groupId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'user_group_links_user_fkey' },
    { name: 'user_login_id', referencedColumnName: 'userLoginId', foreignKeyConstraintName: 'user_group_links_user_fkey' },
  ])
  user?: UserEntity;

  @ManyToOne(() => AuthGroupEntity)
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'user_group_links_group_fkey' },
    { name: 'group_id', referencedColumnName: 'groupId', foreignKeyConstraintName: 'user_group_links_group_fkey' },
  ])
  group?: AuthGroupEntity;
}
