import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AuthEntity } from '../auths/auth.entity';
import { AuthGroupEntity } from './auth-group.entity';
import type { AppToken } from '../common/app-scope';

/** One auth of a group (the normalised form of `group_auths`). */
@Entity('auth_group_auths')
@Index('auth_group_auths_app_token_auth_id_idx', ['appToken', 'authId'])
export class AuthGroupAuthEntity {
  @PrimaryColumn({ name: 'app_token', type: 'varchar', length: 40, primaryKeyConstraintName: 'auth_group_auths_pkey' })
  appToken!: AppToken;

  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'auth_group_auths_pkey' })
  groupId!: string;

  @PrimaryColumn({ name: 'auth_id', type: 'varchar', length: 16, primaryKeyConstraintName: 'auth_group_auths_pkey' })
  authId!: string;

  @ManyToOne(() => AuthGroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'auth_group_auths_group_fkey' },
    { name: 'group_id', referencedColumnName: 'groupId', foreignKeyConstraintName: 'auth_group_auths_group_fkey' },
  ])
  group?: AuthGroupEntity;

  @ManyToOne(() => AuthEntity)
  @JoinColumn([
    { name: 'app_token', referencedColumnName: 'appToken', foreignKeyConstraintName: 'auth_group_auths_auth_fkey' },
    { name: 'auth_id', referencedColumnName: 'authId', foreignKeyConstraintName: 'auth_group_auths_auth_fkey' },
  ])
  auth?: AuthEntity;
}
