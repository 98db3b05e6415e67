import { NONCE_TTL_WITHOUT_TIMESTAMP_SECONDS, nonceSettingsProblem, nonceTtlSeconds } from './nonce-window';

describe('the nonce window (docs/contract.md §2)', () => {
  it.each([1, 2, 5, 300, 86400])('outlives every request that may carry the nonce, skew %i s', (skew) => {
    // A request stamped t is accepted until t + skew; its nonce is first claimed at t - skew at the earliest.
    const t = 1_767_225_600;
    const earliestClaim = t - skew;
    expect(earliestClaim + nonceTtlSeconds(skew)).toBeGreaterThan(t + skew);
  });

  it('keeps an optional nonce a day when requests carry no time', () => {
    expect(nonceTtlSeconds(0)).toBe(NONCE_TTL_WITHOUT_TIMESTAMP_SECONDS);
  });

  it('names both settings when nonces are required without a window', () => {
    expect(nonceSettingsProblem(true, 0)).toMatch(/SIGNATURE_REQUIRE_NONCE=true needs SIGNATURE_MAX_SKEW_SECONDS of at least 1/);
    expect(nonceSettingsProblem(true, 1)).toBeUndefined();
    expect(nonceSettingsProblem(false, 0)).toBeUndefined();
  });
});
