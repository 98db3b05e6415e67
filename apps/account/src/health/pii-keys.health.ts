import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PiiKeyCheck } from '../pii/pii-key-check';

/**
 * Readiness of the stored personal data (docs/contract.md §11): down while values are stored
 * under a key id missing from `PII_KEYS`, naming the ids and where they are used (never a
 * value), so that a replica with an incomplete ring takes no traffic instead of answering
 * 90503 for those rows.
 */
@Injectable()
export class PiiKeysHealthIndicator {
  constructor(
    private readonly keys: PiiKeyCheck,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async piiKeys() {
    const check = this.indicators.check('pii_keys');
    try {
      const missing = await this.keys.missingKeys();
      const ids = Object.keys(missing).sort();
      if (ids.length === 0) return check.up();
      return check.down({ message: `stored personal data under key ids missing from PII_KEYS: ${ids.join(', ')}`, missing });
    } catch (err) {
      return check.down({ message: `cannot list the key ids in use: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
}
