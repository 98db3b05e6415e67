/** PostgreSQL SQLSTATEs the services act on. */
export const PgErrorCode = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
} as const;

interface PgError {
  code?: unknown;
  constraint?: unknown;
}

function pgErrorOf(err: unknown): PgError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const driverError = (err as { driverError?: unknown }).driverError;
  return (typeof driverError === 'object' && driverError !== null ? driverError : err) as PgError;
}

/** True when `err` (a TypeORM `QueryFailedError` or a `pg` error) is a unique violation, optionally of one constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(err);
  return pg?.code === PgErrorCode.UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}

/** True when `err` is a foreign-key violation, optionally of one constraint. */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(err);
  return pg?.code === PgErrorCode.FOREIGN_KEY_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}
