import { dropTestDatabase } from '../support/database';
import { TEMPLATE_ENV } from './medium-database';

export default async function globalTeardown(): Promise<void> {
  const name = process.env[TEMPLATE_ENV];
  if (name) await dropTestDatabase(name);
}
