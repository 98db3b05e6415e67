import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { InvalidParameterException } from '@geoaccount/api';
import type { JsonSchema } from '@geoaccount/http';

/** Longest value of each path parameter of the admin API. */
export const ADMIN_PATH_LIMITS = { app_token: 40, credential_id: 40, login: 64, user_login_id: 64 } as const;
type AdminPathName = keyof typeof ADMIN_PATH_LIMITS;

const PRINTABLE = /^\P{Cc}+$/u;

@Injectable()
class AdminPathPipe implements PipeTransform<unknown, string> {
  constructor(private readonly name: AdminPathName) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || value.length > ADMIN_PATH_LIMITS[this.name] || !PRINTABLE.test(value))
      throw new InvalidParameterException(this.name);
    return value;
  }
}

/** A path parameter of the admin API, refused with 400 90100 naming it when too long or not printable. */
export const AdminPath = (name: AdminPathName): ParameterDecorator => Param(name, new AdminPathPipe(name));

/** The OpenAPI schema of a path parameter. */
export function adminPathSchema(name: AdminPathName): Record<string, JsonSchema> {
  return { [name]: { type: 'string', minLength: 1, maxLength: ADMIN_PATH_LIMITS[name] } };
}
