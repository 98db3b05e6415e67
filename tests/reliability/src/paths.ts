import { join } from 'node:path';

/** The repository root. */
export const REPO_ROOT = join(__dirname, '../../..');

/** Where a run keeps its figures and the captured output of every service it started. */
export const RESULTS_DIR = join(REPO_ROOT, '.test-results/reliability');
export const LOG_DIR = join(RESULTS_DIR, 'logs');
export const FIGURES_FILE = join(RESULTS_DIR, 'figures.jsonl');

/** The compiled entry points the suite runs as child processes. */
export const SERVICE_MAIN = {
  account: join(REPO_ROOT, 'apps/account/dist/main.js'),
  location: join(REPO_ROOT, 'apps/location/dist/main.js'),
} as const;
export type ServiceKind = keyof typeof SERVICE_MAIN;
