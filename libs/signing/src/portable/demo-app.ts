/** How a login password is encrypted for an app (docs/contract.md §4). */
export type AesMode = 'gcm' | 'ecb';

/**
 * The demo app of `pnpm start` and of a service started without `APP_CREDENTIALS` (docs/contract.md §1);
 * refused with `NODE_ENV=production`.
 */
// Pure: a bundle that does not use it (the web console) leaves it out.
export const DEMO_APP: Readonly<{ appToken: string; secret: string; aesKey: string; aesMode: AesMode }> = /* @__PURE__ */ Object.freeze({
  appToken: 'app-7f3a9c2e41d08b56',
  secret: 'demo-secret-0123456789abcdef',
  aesKey: 'demo-aes-key',
  aesMode: 'gcm',
});
