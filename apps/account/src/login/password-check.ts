import type { AppToken } from '../common/app-scope';
import type { DirectoryService } from '../directory/directory.service';
import type { PasswordCheck, PasswordHasher } from '../users/password-hasher';

/**
 * The password check of a login, the same work whatever the login id is (docs/contract.md §9,
 * §13): an ordinary user's password is verified against its argon2 hash; an unknown id's
 * against the dummy hash; a domain user's by the app's directory, and against the dummy hash as
 * well, so that a domain id (whose directory answers at once for a blank password, or when the
 * app has no directory) is not told apart from the others by the time its answer takes. Each
 * path runs exactly one argon2 verification.
 */
export async function checkLoginPassword(
  appToken: AppToken,
  userLoginId: string,
  user: { isDomainUser: string; userPwdHash?: string | null } | null,
  password: string,
  hasher: Pick<PasswordHasher, 'check' | 'dummyVerify'>,
  directory: Pick<DirectoryService, 'verify'>,
): Promise<PasswordCheck> {
  if (user?.isDomainUser !== '1') return hasher.check(user?.userPwdHash ?? null, password);
  const dummy = hasher.dummyVerify(password);
  try {
    return { ok: await directory.verify(appToken, userLoginId, password), needsRehash: false };
  } finally {
    await dummy;
  }
}
