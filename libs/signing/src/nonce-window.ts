/**
 * How long a nonce is remembered (docs/contract.md §2): at least as long as a request carrying
 * it could still be accepted. A request stamped `t` is accepted while the clock is within
 * `t ± skew`, so from its first use (no earlier than `t - skew`) it can come back until
 * `t + skew`: two skews after the claim, plus a second for clocks of instances and database
 * that are not exactly alike.
 *
 * With `SIGNATURE_MAX_SKEW_SECONDS=0` a request carries no time and never expires; no window
 * covers it, so nonces cannot be required then (the service refuses to start), and an
 * optional nonce is kept a day.
 */
export const NONCE_TTL_WITHOUT_TIMESTAMP_SECONDS = 86_400;

export function nonceTtlSeconds(maxSkewSeconds: number): number {
  return maxSkewSeconds > 0 ? 2 * maxSkewSeconds + 1 : NONCE_TTL_WITHOUT_TIMESTAMP_SECONDS;
}

/** The start-up check of §2: requiring nonces needs a timestamp window to remember them for. */
export function nonceSettingsProblem(requireNonce: boolean, maxSkewSeconds: number): string | undefined {
  if (requireNonce && maxSkewSeconds < 1) {
    return `SIGNATURE_REQUIRE_NONCE=true needs SIGNATURE_MAX_SKEW_SECONDS of at least 1 (is ${maxSkewSeconds}): without a timestamp window a request never expires and no nonce could be remembered for as long as it may be replayed`;
  }
  return undefined;
}
