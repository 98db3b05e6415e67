import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { LOG_DIR, RESULTS_DIR, SERVICE_MAIN } from './paths';

/** A run starts with no figures and no captured logs; the compiled services must exist. */
export default function globalSetup(): void {
  for (const main of Object.values(SERVICE_MAIN)) {
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`pnpm build\` (or use \`pnpm test:reliability\`, which builds first)`);
  }
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  mkdirSync(LOG_DIR, { recursive: true });
}
