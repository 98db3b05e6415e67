import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { hash, parseOptions, verify } from '@node-rs/argon2';
import { AccountConfig } from '../config/account.config';

/** argon2id cost parameters (OWASP: 19 MiB, t=2, p=1). */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export function argon2ParamsOf(config: AccountConfig): Argon2Params {
  return { memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: config.ARGON2_PARALLELISM };
}

/** What checking a password against a stored hash found. */
export interface PasswordCheck {
  ok: boolean;
  /** The hash was made with other parameters than the current ones: store a new one. */
  needsRehash: boolean;
}

const ARGON2ID = 2;

/**
 * Hashes and checks passwords with argon2id. The work runs on the native thread pool
 * (the async API), never on the event loop. A dummy hash made at start with the same
 * parameters stands in for users that do not exist or have no password, so that a
 * failed login costs the same time whatever the reason.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly params: Argon2Params;
  private dummyHash?: Promise<string>;

  constructor(@Inject(AccountConfig) config: AccountConfig) {
    this.params = argon2ParamsOf(config);
  }

  onModuleInit(): void {
    void this.dummy();
  }

  hash(password: string): Promise<string> {
    return hash(password, this.params);
  }

  /** Checks `password` against `stored`, or against the dummy hash when there is none (always fails). */
  async check(stored: string | null | undefined, password: string): Promise<PasswordCheck> {
    if (!stored) {
      await verify(await this.dummy(), password).catch(() => false);
      return { ok: false, needsRehash: false };
    }
    let ok: boolean;
    try {
      ok = await verify(stored, password);
    } catch {
      return { ok: false, needsRehash: false };
    }
    return { ok, needsRehash: ok && this.outdated(stored) };
  }

  /** True when `stored` was not made with argon2id and the current parameters. */
  outdated(stored: string): boolean {
    try {
      const used = parseOptions(stored);
      return (
        (used.algorithm as number) !== ARGON2ID ||
        used.memoryCost !== this.params.memoryCost ||
        used.timeCost !== this.params.timeCost ||
        used.parallelism !== this.params.parallelism
      );
    } catch {
      return true;
    }
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('base64'));
    return this.dummyHash;
  }
}
