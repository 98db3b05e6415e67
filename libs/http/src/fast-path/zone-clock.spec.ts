import fc from 'fast-check';
import { formatTimestamp } from './zone-clock';

describe('formatTimestamp', () => {
  const instant = new Date('2026-01-01T00:00:05.678Z');

  it('writes YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatTimestamp(instant, 'UTC')).toBe('2026-01-01 00:00:05');
  });

  it('converts to the configured zone, across a date line', () => {
    expect(formatTimestamp(instant, 'Asia/Shanghai')).toBe('2026-01-01 08:00:05');
    expect(formatTimestamp(instant, 'America/New_York')).toBe('2025-12-31 19:00:05');
  });

  it('uses 00 for midnight, never 24', () => {
    expect(formatTimestamp(new Date('2026-03-01T16:00:00Z'), 'Asia/Shanghai')).toBe('2026-03-02 00:00:00');
  });
});

describe('formatTimestamp against Intl', () => {
  const zones = [
    'UTC',
    'Asia/Shanghai',
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
  ];
  const intl = (value: Date, timeZone: string) => {
    const p: Record<string, string> = {};
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(value);
    for (const part of parts) p[part.type] = part.value;
    return `${p.year!.padStart(4, '0')}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };

  it('agrees with formatToParts on any instant and zone (offsets remembered per minute)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1850-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (d, zone) => {
          expect(formatTimestamp(d, zone)).toBe(intl(d, zone));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('agrees around daylight-saving changes, second by second', () => {
    // New York: 2026-03-08 02:00 local (07:00 UTC) and 2026-11-01 02:00 local (06:00 UTC).
    for (const iso of ['2026-03-08T06:59:00Z', '2026-11-01T05:59:00Z']) {
      const start = Date.parse(iso);
      for (let s = 0; s <= 120; s++) {
        const d = new Date(start + s * 1000);
        expect(formatTimestamp(d, 'America/New_York')).toBe(intl(d, 'America/New_York'));
      }
    }
  });
});
