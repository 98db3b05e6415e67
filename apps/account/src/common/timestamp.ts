import { Inject, Injectable } from '@nestjs/common';
import { AccountConfig } from '../config/account.config';

/** `YYYY-MM-DD HH:MM:SS` of an instant in an IANA time zone (CONTRACT §7). */
export function formatTimestamp(value: Date, timeZone: string): string {
  return formatterFor(timeZone)(value);
}

const cache = new Map<string, (value: Date) => string>();

function formatterFor(timeZone: string): (value: Date) => string {
  let format = cache.get(timeZone);
  if (!format) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    format = (value: Date) => {
      const p: Record<string, string> = {};
      for (const part of parts.formatToParts(value)) p[part.type] = part.value;
      return `${p.year!.padStart(4, '0')}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
    };
    cache.set(timeZone, format);
  }
  return format;
}

/** Formats stored times in the service's `TZ`; `null` stays `null`. */
@Injectable()
export class TimestampFormatter {
  constructor(@Inject(AccountConfig) private readonly config: AccountConfig) {}

  format(value: Date | null | undefined): string | null {
    return value ? formatTimestamp(value, this.config.TZ) : null;
  }
}
