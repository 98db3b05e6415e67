import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminGuard } from './admin.guard';

/** Path prefix of the admin API (docs/contract.md §14). */
export const ADMIN_API_PREFIX = 'admin/v1';

/** A controller of the admin API: under `/admin/v1`, every route behind the admin guard. */
export function AdminController(path: string): ClassDecorator {
  return applyDecorators(Controller(`${ADMIN_API_PREFIX}/${path}`), UseGuards(AdminGuard), ApiTags('admin'));
}
