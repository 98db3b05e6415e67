import { Injectable } from '@nestjs/common';
import type { AppToken } from '../common/app-scope';
import { DirectoryService } from '../directory/directory.service';
import { type PasswordCheck, PasswordHasher } from '../users/password-hasher';
import type { UserEntity } from '../users/user.entity';
import { checkLoginPassword } from './password-check';

/**
 * Where a login's password is checked: an ordinary user's against its stored argon2id hash (an
 * unknown login id against the dummy hash, after the same work), a domain user's by the app's
 * directory and the dummy hash alike, so that no kind of id is told apart by its time
 * (docs/contract.md §9, §13; {@link checkLoginPassword}).
 */
@Injectable()
export class PasswordVerifier {
  constructor(
    private readonly hasher: PasswordHasher,
    private readonly directory: DirectoryService,
  ) {}

  async verify(appToken: AppToken, userLoginId: string, user: UserEntity | null, password: string): Promise<PasswordCheck> {
    return checkLoginPassword(appToken, userLoginId, user, password, this.hasher, this.directory);
  }

  /** A hash of `password` with the current parameters (a rehash after a login). */
  hash(password: string): Promise<string> {
    return this.hasher.hash(password);
  }
}
