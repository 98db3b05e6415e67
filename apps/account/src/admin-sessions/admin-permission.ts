import { SetMetadata } from '@nestjs/common';
import type { OperatorRole } from './admin-principal';

/**
 * What an admin route does, declared once per route with {@link AdminPermission}; the admin
 * guard allows it by the table below (docs/contract.md §14), in one place.
 */
export type Permission =
  | 'session.read'
  | 'apps.read'
  | 'apps.write'
  | 'credentials.write'
  | 'operators.read'
  | 'operators.write'
  | 'lockouts.write'
  | 'audit.read';

/** `all`: any app; `own`: an app of the route's `app_token` among the operator's apps (or, without one, a scoped answer). */
type Grant = 'all' | 'own';

export const ROLE_GRANTS: Readonly<Record<OperatorRole, Partial<Record<Permission, Grant>>>> = {
  admin: {
    'session.read': 'all',
    'apps.read': 'all',
    'apps.write': 'all',
    'credentials.write': 'all',
    'operators.read': 'all',
    'operators.write': 'all',
    'lockouts.write': 'all',
    'audit.read': 'all',
  },
  app_admin: {
    'session.read': 'all',
    'apps.read': 'own',
    'credentials.write': 'own',
    'lockouts.write': 'own',
    'audit.read': 'own',
  },
  auditor: {
    'session.read': 'all',
    'apps.read': 'all',
    'operators.read': 'all',
    'audit.read': 'all',
  },
};

export const PERMISSION_KEY = 'admin:permission';

/** Declares the permission an admin route needs (a route without one is refused). */
export const AdminPermission = (permission: Permission): MethodDecorator => SetMetadata(PERMISSION_KEY, permission);
