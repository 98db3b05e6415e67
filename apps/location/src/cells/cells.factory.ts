import { Logger } from '@nestjs/common';
import type { Metrics } from '@geoaccount/observability';
import type { LocationConfig } from '../config/location.config';
import { SERVICE_USER_AGENT } from '../upstream/upstream-http';
import { upstreamPolicyFromConfig } from '../upstream/upstream-policy';
import type { CellSource } from './cell-source.port';
import { loadCellFile, sampleCellFile } from './offline/cell-file';
import { OfflineCellSource } from './offline/offline-cell-source';
import { OpenCellIdCellSource } from './opencellid/opencellid-cell-source';

/** The source named by `CELL_SOURCE`; the offline one loads its file before the service listens. */
export async function createCellSource(config: LocationConfig, logger = new Logger('Cells'), metrics?: Metrics): Promise<CellSource> {
  if (config.CELL_SOURCE === 'opencellid') {
    return new OpenCellIdCellSource(
      { key: config.OPENCELLID_KEY ?? '', baseUrl: config.OPENCELLID_BASE_URL, userAgent: SERVICE_USER_AGENT },
      upstreamPolicyFromConfig('opencellid', config, metrics?.upstream('opencellid')),
    );
  }
  const sample = config.CELL_TOWERS_FILE === undefined;
  const path = config.CELL_TOWERS_FILE ?? sampleCellFile();
  const mcc = config.CELL_TOWERS_MCC ? new Set(config.CELL_TOWERS_MCC.split(',').map(Number)) : undefined;
  const { index, stats } = await loadCellFile(path, { mcc });
  logger.log(
    `${sample ? 'generated sample cells (set CELL_TOWERS_FILE for real data)' : path}: ${stats.cells} cells from ${stats.rows} rows` +
      `${stats.skipped ? ` (${stats.skipped} skipped)` : ''} in ${stats.ms} ms`,
  );
  return new OfflineCellSource(index);
}
