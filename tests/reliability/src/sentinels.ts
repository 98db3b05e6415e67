/**
 * Values the suite sends that must never appear in a service's output: every password,
 * certificate number and mobile number the suite uses carries one of these marks (the log
 * scan looks for the marks, so it catches a value however it was built).
 */
export const SENTINEL = {
  password: 'Rel-Pwd-',
  certId: 'RELCERT',
  mobilePrefix: '1391234',
} as const;

export const password = (tag: string | number = ''): string => `${SENTINEL.password}${tag}-Zq8!`;
export const certId = (n: number): string => `${SENTINEL.certId}${String(n).padStart(8, '0')}`;
export const mobile = (n: number): string => `${SENTINEL.mobilePrefix}${String(n % 10000).padStart(4, '0')}`;

/** Patterns of the log scan besides the literal secrets. */
export const FORBIDDEN_PATTERNS: { what: string; re: RegExp }[] = [
  { what: 'password', re: new RegExp(SENTINEL.password) },
  { what: 'cert_id', re: new RegExp(SENTINEL.certId) },
  { what: 'mobile number', re: new RegExp(`${SENTINEL.mobilePrefix}\\d{4}`) },
  { what: 'argon2 hash', re: /\$argon2(id|i|d)\$/ },
];
