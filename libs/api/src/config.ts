import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** A start-up configuration error; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Variables whose values are secrets. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|KEYS?$/;

/**
 * Reads the environment into a validated, typed object (a class whose property names are
 * the variable names, decorated with class-validator / class-transformer). Unset variables
 * keep the class's defaults; the first invalid one throws a `ConfigError` naming it.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defined: Record<string, string> = {};
  for (const key of Object.keys(new cls())) {
    const value = env[key];
    if (value !== undefined && value !== '') defined[key] = value;
  }
  const config = plainToInstance(cls, defined, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, stopAtFirstError: true });
  const first = errors[0];
  if (first) {
    // A secret's value is never echoed (a log line would carry it).
    const raw = SECRET_NAME.test(first.property) ? undefined : defined[first.property];
    const why = Object.values(first.constraints ?? {})[0] ?? 'invalid';
    throw new ConfigError(`Invalid environment variable ${first.property}${raw === undefined ? '' : `=${JSON.stringify(raw)}`}: ${why}`);
  }
  return config;
}

/** Parses a size like `32kb`, `1mb` or `4096` into bytes. */
export function parseBytes(text: string): number {
  const m = /^(\d+)\s*(b|kb|mb)?$/i.exec(text.trim());
  if (!m) throw new ConfigError(`not a size: ${text}`);
  const unit = (m[2] ?? 'b').toLowerCase();
  return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
}
