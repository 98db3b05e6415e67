/** A row of `apps` (docs/contract.md §14). */
export interface AppRecord {
  appToken: string;
  appName: string;
  aesMode: 'gcm' | 'ecb';
  state: 'enabled' | 'disabled';
  createTime: Date;
}
