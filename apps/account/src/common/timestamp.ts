import { Inject, Injectable } from '@nestjs/common';
import { formatTimestamp } from '@geoaccount/http';
import { AccountConfig } from '../config/account.config';

/** `YYYY-MM-DD HH:MM:SS` of an instant in an IANA time zone (docs/contract.md §7; libs/http's fast path). */
export { formatTimestamp };

/** Formats stored times in the service's `TZ`; `null` stays `null`. */
@Injectable()
export class TimestampFormatter {
  constructor(@Inject(AccountConfig) private readonly config: AccountConfig) {}

  format(value: Date | null | undefined): string | null {
    return value ? formatTimestamp(value, this.config.TZ) : null;
  }
}
