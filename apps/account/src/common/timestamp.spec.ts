import { formatTimestamp } from './timestamp';

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
