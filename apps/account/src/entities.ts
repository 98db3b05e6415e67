import { AuthGroupAuthEntity } from './auth-groups/auth-group-auth.entity';
import { AuthGroupEntity } from './auth-groups/auth-group.entity';
import { AuthEntity } from './auths/auth.entity';
import { LoginFailureEntity } from './login/login-failure.entity';
import { UserAuthLinkEntity, UserGroupLinkEntity } from './users/user-links.entity';
import { UserEntity } from './users/user.entity';

/**
 * Every entity of the account schema, for the CLI DataSource (`database/data-source.ts`); here at
 * the root, so that `database/` imports no feature while the features import `database/`. The app
 * itself registers them per feature with `TypeOrmModule.forFeature`; an e2e test checks that
 * both lists agree and that the migrations produce exactly this schema.
 */
export const ENTITIES = [
  AuthEntity,
  AuthGroupEntity,
  AuthGroupAuthEntity,
  UserEntity,
  UserAuthLinkEntity,
  UserGroupLinkEntity,
  LoginFailureEntity,
];
