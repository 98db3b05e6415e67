import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Metrics } from './metrics';

/** `GET /metrics`: Prometheus exposition text (outside the signed API). */
@ApiTags('operations')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description: 'Process, HTTP, result-code and dependency metrics in the Prometheus text format.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus exposition format 0.0.4', schema: { type: 'string' } })
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.render();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  }
}
