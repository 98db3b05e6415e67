import 'reflect-metadata';
import { AppRegistry } from '@geoaccount/signing';
import { createAccountApp } from './app';
import { loadAccountConfig } from './config/account.config';

async function main(): Promise<void> {
  let config;
  let registry;
  try {
    config = loadAccountConfig();
    registry = AppRegistry.fromEnv();
  } catch (err) {
    process.stderr.write(`account: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const app = await createAccountApp(config, registry);
  await app.listen(config.PORT, config.HOST);
  process.stdout.write(`account listening on http://${config.HOST}:${config.PORT}\n`);
}

void main();
