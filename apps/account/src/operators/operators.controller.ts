import { Body, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { accountOk } from '@geoaccount/api';
import { AdminController } from '../admin-sessions/admin-controller';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { AdminPath, adminPathSchema } from '../admin-sessions/admin-path';
import { AdminPermission } from '../admin-sessions/admin-permission';
import { type AdminPrincipal, Principal } from '../admin-sessions/admin-principal';
import { CreateOperatorDto } from './dto/create-operator.dto';
import { ModifyOperatorDto } from './dto/modify-operator.dto';
import { OPERATOR_FIELDS } from './operator.view';
import { OperatorCodes } from './operators.codes';
import { OperatorsService } from './operators.service';

const OPERATOR_ANSWER = { type: 'object', properties: OPERATOR_FIELDS, required: Object.keys(OPERATOR_FIELDS) };

/** Operators (docs/contract.md §14): admins change them, admins and auditors read them. */
@AdminController('operators')
export class OperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Post()
  @HttpCode(201)
  @AdminPermission('operators.write')
  @AdminOperation({
    operationId: 'createOperator',
    summary: 'Create an operator',
    description:
      'A `password` (at least 12 characters, stored as an argon2id hash) or `directory: true` (checked against the `LDAP_*` directory); ' +
      '`apps` for an app_admin only, naming existing apps.',
    status: 201,
    body: CreateOperatorDto,
    answer: OPERATOR_ANSWER,
    codes: [OperatorCodes.EXISTS],
  })
  async create(@Principal() actor: AdminPrincipal, @Body() dto: CreateOperatorDto) {
    return accountOk(true, { ...(await this.operators.create(actor, dto)) });
  }

  @Get()
  @AdminPermission('operators.read')
  @AdminOperation({
    operationId: 'listOperators',
    summary: 'List operators',
    description: 'Every operator, by login.',
    status: 200,
    answer: {
      type: 'object',
      properties: {
        count: { type: 'string', pattern: '^\\d+$' },
        operator_list: { type: 'array', items: { $ref: '#/components/schemas/AdminOperator' } },
      },
      required: ['count', 'operator_list'],
    },
  })
  async list() {
    const operators = await this.operators.list();
    return accountOk(false, { count: String(operators.length), operator_list: operators });
  }

  @Get(':login')
  @AdminPermission('operators.read')
  @AdminOperation({
    operationId: 'getOperator',
    summary: 'Read an operator',
    description: 'The operator (never a password).',
    status: 200,
    path: adminPathSchema('login'),
    answer: OPERATOR_ANSWER,
    codes: [OperatorCodes.NOT_FOUND],
  })
  async get(@AdminPath('login') login: string) {
    return accountOk(false, { ...(await this.operators.get(login)) });
  }

  @Patch(':login')
  @AdminPermission('operators.write')
  @AdminOperation({
    operationId: 'modifyOperator',
    summary: 'Change an operator',
    description:
      'Role, apps, state or password; `"state":"enabled"` also clears a sign-in lock. Disabling an operator or changing its password ends its sessions.',
    status: 200,
    path: adminPathSchema('login'),
    body: ModifyOperatorDto,
    answer: OPERATOR_ANSWER,
    codes: [OperatorCodes.NOT_FOUND],
  })
  async modify(@Principal() actor: AdminPrincipal, @AdminPath('login') login: string, @Body() dto: ModifyOperatorDto) {
    return accountOk(false, { ...(await this.operators.modify(actor, login, dto)) });
  }
}
