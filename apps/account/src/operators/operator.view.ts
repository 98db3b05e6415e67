import type { OperatorRecord } from './operator.record';

/** An operator as the admin API answers it: never a password or hash (docs/contract.md §14). */
export interface OperatorView {
  login: string;
  role: OperatorRecord['role'];
  apps: string[];
  state: OperatorRecord['state'];
  directory: boolean;
  /** Locked by failed sign-ins now (`PATCH` with `"state":"enabled"` clears it). */
  locked: boolean;
  create_time: string;
}

export function operatorView(o: OperatorRecord, format: (d: Date | null) => string | null): OperatorView {
  return {
    login: o.login,
    role: o.role,
    apps: o.apps,
    state: o.state,
    directory: o.directory,
    locked: o.locked,
    create_time: format(o.createTime) ?? '',
  };
}

export const OPERATOR_FIELDS = {
  login: { type: 'string' },
  role: { type: 'string', enum: ['admin', 'app_admin', 'auditor'] },
  apps: { type: 'array', items: { type: 'string' } },
  state: { type: 'string', enum: ['enabled', 'disabled'] },
  directory: { type: 'boolean' },
  locked: { type: 'boolean' },
  create_time: { type: 'string' },
};
export const OPERATOR_SCHEMA = { type: 'object', properties: OPERATOR_FIELDS, required: Object.keys(OPERATOR_FIELDS), additionalProperties: false };
