import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DirectoryService } from '../directory/directory.service';

/**
 * The directories of domain logins in readiness: always up (a directory outage fails domain
 * logins with 503 20499, not the instance), with each circuit's state and the directories
 * whose circuit is not closed or whose last check got no answer listed as `degraded`.
 */
@Injectable()
export class DirectoryHealthIndicator {
  constructor(
    private readonly directory: DirectoryService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** Whether any directory is configured (no detail otherwise). */
  get configured(): boolean {
    return this.directory.configured;
  }

  directories() {
    const directories = this.directory.status();
    const degraded = Object.entries(directories)
      .filter(([, d]) => d.circuit !== 'closed' || d.lastCheck === 'unavailable')
      .map(([name]) => name);
    return this.indicators.check('directory').up({ directories, ...(degraded.length > 0 ? { degraded } : {}) });
  }
}
