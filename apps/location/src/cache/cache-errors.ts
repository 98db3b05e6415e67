/** Why a cache command failed: the `reason` label of `cache_errors_total`. */
export type CacheErrorReason = 'clusterdown' | 'redirections' | 'timeout' | 'connection' | 'other';

/**
 * Classifies a failure of the Redis (Cluster) cache. A cluster that cannot serve answers
 * `CLUSTERDOWN …` (handed back at once, not retried: each such reply is one counted error), or
 * keeps redirecting a command until ioredis gives up ("Too many Cluster redirections").
 */
export function cacheErrorReason(err: unknown): CacheErrorReason {
  const message = err instanceof Error ? err.message : String(err);
  if (/too many cluster redirections/i.test(message)) return 'redirections';
  if (/^CLUSTERDOWN\b/.test(message)) return 'clusterdown';
  if (/timed out|timeout/i.test(message)) return 'timeout';
  const code = (err as { code?: unknown } | undefined)?.code;
  if (
    /connection (is )?closed|connect|ECONNREFUSED|ECONNRESET|EPIPE|ENOTCONN|ETIMEDOUT|None of startup nodes is available|Failed to refresh slots cache/i.test(
      message,
    ) ||
    (typeof code === 'string' && /^E[A-Z]+$/.test(code))
  ) {
    return 'connection';
  }
  return 'other';
}
