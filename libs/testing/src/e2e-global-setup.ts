import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { coverageDir } from './openapi-coverage-dir';
import clearCoverage from './openapi-coverage-start';
import { type PrismProxy, startPrismProxy } from './prism-proxy';

declare global {
  var e2ePrismProxy: PrismProxy | undefined;
}

/**
 * Jest global setup of an app's e2e suites: clears the run's OpenAPI coverage and, with
 * `E2E_VIA_PRISM=1`, starts a Prism validating proxy on the app's document
 * (`docs/openapi/<app>.json`) that the suites' clients go through (`E2E_PRISM_URL`).
 */
export default async function e2eGlobalSetup(globalConfig: unknown, projectConfig: { rootDir: string }): Promise<void> {
  clearCoverage(globalConfig, projectConfig);
  rmSync(`${coverageDir(projectConfig.rootDir)}-prism`, { recursive: true, force: true });
  if (process.env.E2E_VIA_PRISM !== '1') return;
  const started = Date.now();
  const document = join(projectConfig.rootDir, '../../docs/openapi', `${basename(projectConfig.rootDir)}.json`);
  globalThis.e2ePrismProxy = await startPrismProxy(document);
  process.env.E2E_PRISM_URL = globalThis.e2ePrismProxy.url;
  process.stdout.write(`\nPrism proxy on ${document} at ${globalThis.e2ePrismProxy.url} (started in ${Date.now() - started} ms)\n`);
}
