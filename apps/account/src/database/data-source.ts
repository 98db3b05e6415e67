import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAccountConfig } from '../config/account.config';
import { dataSourceOptions } from './database.options';
import { ENTITIES } from '../entities';

/**
 * The DataSource of the TypeORM CLI, e.g.
 * `npx typeorm migration:show -d apps/account/dist/database/data-source.js`
 * (configured by `DATABASE_URL` and the other `DATABASE_*` variables).
 */
function cliDataSource(): DataSource {
  const config = loadAccountConfig();
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required');
  return new DataSource({ ...dataSourceOptions({ ...config, url: config.DATABASE_URL }), entities: ENTITIES });
}

export default cliDataSource();
