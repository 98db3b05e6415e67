import type { AppToken } from '../common/app-scope';
/** A row of `apps` (docs/contract.md §14). */
export interface AppRecord {
  appToken: AppToken;
  appName: string;
  aesMode: 'gcm' | 'ecb';
  state: 'enabled' | 'disabled';
  createTime: Date;
}
