import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../pii/pii-cipher';

/** A new credential in clear: answered once, to the operator who issues it (docs/contract.md §14). */
export interface IssuedCredential {
  credential_id: string;
  secret: string;
  aes_key: string;
}

/**
 * Makes credentials and seals their secret and AES key under the `PII_KEYS` ring (AES-256-GCM,
 * the associated data binding app, credential id and field: a value cannot be moved to
 * another credential).
 */
@Injectable()
export class CredentialSecrets {
  constructor(private readonly cipher: PiiCipher) {}

  generate(): IssuedCredential {
    return {
      credential_id: `cred-${randomBytes(12).toString('hex')}`,
      secret: randomBytes(32).toString('base64url'),
      aes_key: randomBytes(24).toString('base64url'),
    };
  }

  seal(appToken: string, c: IssuedCredential): { secret: string; aesKey: string; keyId: string } {
    return {
      secret: this.cipher.encrypt(appToken, c.credential_id, 'secret', c.secret),
      aesKey: this.cipher.encrypt(appToken, c.credential_id, 'aes_key', c.aes_key),
      keyId: this.cipher.currentKeyId,
    };
  }

  open(appToken: string, credentialId: string, sealed: { secret: string; aesKey: string }): { secret: string; aesKey: string } {
    return {
      secret: this.cipher.decrypt(appToken, credentialId, 'secret', sealed.secret)!,
      aesKey: this.cipher.decrypt(appToken, credentialId, 'aes_key', sealed.aesKey)!,
    };
  }
}
