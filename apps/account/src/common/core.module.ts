import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FORM_BODY_OPTIONS, type FormBodyOptions, accountEnvelope, parseBytes } from '@geoaccount/api';
import {
  ACCOUNT_SIGNATURE_OPTIONS,
  APP_REGISTRY,
  type AccountSignatureOptions,
  AccountSignatureGuard,
  type AppRegistry,
} from '@geoaccount/signing';
import { AccountConfig } from '../config/account.config';
import { AccountApiGuard } from './account-api';
import { TimestampFormatter } from './timestamp';

/**
 * What every account module may inject: the validated config, the registered apps, the
 * signature options, the time formatter; and the global signature guard.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AccountConfig, registry: AppRegistry): DynamicModule {
    const signature: AccountSignatureOptions = {
      maxSkewSeconds: config.SIGNATURE_MAX_SKEW_SECONDS,
      requireNonce: config.SIGNATURE_REQUIRE_NONCE,
    };
    const formBody: FormBodyOptions = { limitBytes: parseBytes(config.BODY_LIMIT), style: accountEnvelope };
    return {
      module: CoreModule,
      providers: [
        { provide: AccountConfig, useValue: config },
        { provide: APP_REGISTRY, useValue: registry },
        { provide: ACCOUNT_SIGNATURE_OPTIONS, useValue: signature },
        { provide: FORM_BODY_OPTIONS, useValue: formBody },
        TimestampFormatter,
        AccountSignatureGuard,
        { provide: APP_GUARD, useClass: AccountApiGuard },
      ],
      exports: [AccountConfig, APP_REGISTRY, ACCOUNT_SIGNATURE_OPTIONS, FORM_BODY_OPTIONS, TimestampFormatter],
    };
  }
}
