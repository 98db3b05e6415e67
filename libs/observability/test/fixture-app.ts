import { PassThrough } from 'node:stream';
import {
  Body,
  Controller,
  Get,
  type INestApplication,
  Logger,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  type OnApplicationShutdown,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { FORM_BODY_OPTIONS, FormBodyMiddleware, type EnvelopeStyle, accountEnvelope, accountOk } from '@geoaccount/api';
import { FastPathAdapter, type OpenApiOptions, applyHttpDefaults, securityHeaders, setupOpenApi } from '@geoaccount/http';
import { ACCOUNT_SIGNATURE_OPTIONS, APP_REGISTRY, AccountSignatureGuard, AppRegistry, DEMO_APP, signAccount } from '@geoaccount/signing';
import { ObservabilityModule, type ObservabilityOptions } from '../src/observability.module';
import { useRequestObserver } from '../src/setup';

/** Form fields of the fixture's signed POST: every field the logs must never show. */
export class SecretsDto {
  @IsString()
  @MaxLength(64)
  user_login_id!: string;

  @IsOptional() @IsString() user_pwd?: string;
  @IsOptional() @IsString() user_pwd_encrypt?: string;
  @IsOptional() @IsString() cert_id?: string;
  @IsOptional() @IsString() cert_id_encrypt?: string;
  @IsOptional() @IsString() user_mobile?: string;
  @IsOptional() @IsString() user_mobile_encrypt?: string;
  @IsOptional() @IsString() timestamp?: string;
}

@Controller('things')
@UseGuards(AccountSignatureGuard)
class SignedController {
  private readonly logger = new Logger('Things');

  @Post()
  create(@Body() dto: SecretsDto) {
    // A careless log of the whole DTO must still come out masked.
    this.logger.log({ dto }, `creating ${dto.user_login_id}`);
    return accountOk(true, { user_login_id: dto.user_login_id });
  }

  @Get(':thing_id')
  get(@Param('thing_id') id: string) {
    return accountOk(false, { thing_id: id });
  }

  @Post('fail')
  fail(@Body() dto: SecretsDto): never {
    throw new Error(`driver said: user_pwd=${dto.user_pwd ?? ''}&cert_id=${dto.cert_id ?? ''} {"user_mobile":"${dto.user_mobile ?? ''}"}`);
  }
}

/** When each `/open/slow` handler finished (epoch ms). */
export const slowHandlersDone: number[] = [];

@Controller('open')
class OpenController {
  @Get('slow')
  async slow(@Query('ms') ms?: string) {
    await new Promise((resolve) => setTimeout(resolve, Number(ms ?? 0)));
    slowHandlersDone.push(Date.now());
    return accountOk(false, { slept: ms ?? '0' });
  }
}

/** Records that Nest closed the application (pools and clients close in such hooks). */
export class ShutdownProbe implements OnApplicationShutdown {
  closedAt?: number;
  onApplicationShutdown(): void {
    this.closedAt = Date.now();
  }
}

export interface FixtureOptions extends Partial<ObservabilityOptions> {
  style?: EnvelopeStyle;
  /** Serve `/docs` and `/docs-json` (libs/http). */
  openApi?: OpenApiOptions;
}

export interface Fixture {
  app: INestApplication;
  /** Every log line written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** The raw log text. */
  text(): string;
}

export async function createFixtureApp(options: FixtureOptions = {}): Promise<Fixture> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const style = options.style ?? accountEnvelope;

  @Module({
    imports: [ObservabilityModule.forRoot({ service: 'fixture', logLevel: 'info', defaultMetrics: false, logStream: stream, ...options })],
    controllers: [SignedController, OpenController],
    providers: [
      ShutdownProbe,
      { provide: APP_REGISTRY, useValue: new AppRegistry([DEMO_APP]) },
      { provide: ACCOUNT_SIGNATURE_OPTIONS, useValue: { maxSkewSeconds: 300 } },
      { provide: FORM_BODY_OPTIONS, useValue: { limitBytes: 64 * 1024, style } },
    ],
  })
  class FixtureModule implements NestModule {
    configure(consumer: MiddlewareConsumer) {
      consumer.apply(FormBodyMiddleware).forRoutes('*');
    }
  }

  const app = await NestFactory.create(FixtureModule, new FastPathAdapter(), { bodyParser: false, bufferLogs: true });
  applyHttpDefaults(app, style, { shutdownHooks: false });
  // As the services wire it (apps/*/src/app.ts).
  useRequestObserver(app);
  app.use(securityHeaders());
  if (options.openApi) setupOpenApi(app, options.openApi);
  await app.init();
  return {
    app,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Signed form fields (docs/contract.md §2) of a request by the demo app to `path`. */
export function signedFields(
  method: string,
  path: string,
  fields: Record<string, string>,
  pathIds: Record<string, string> = {},
): Record<string, string> {
  const params = { ...fields, timestamp: String(Math.floor(Date.now() / 1000)) };
  const signature = signAccount(DEMO_APP.secret, method, DEMO_APP.appToken, path, { ...params, ...pathIds });
  return { ...params, app_token: DEMO_APP.appToken, signature };
}
