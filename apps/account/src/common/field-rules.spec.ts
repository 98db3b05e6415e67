import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '@geoaccount/api';
import { PATH_ID_FIELDS } from './account-codes';
import { CreateGroupDto } from '../auth-groups/dto/create-group.dto';
import { ModifyGroupDto } from '../auth-groups/dto/modify-group.dto';
import { CreateAuthDto } from '../auths/dto/create-auth.dto';
import { ModifyAuthDto } from '../auths/dto/modify-auth.dto';
import { ModifyUserDto } from '../users/dto/modify-user.dto';
import { RegisterUserDto } from '../users/dto/register-user.dto';
import { FIELD_LIMITS } from './field-rules';
import { ID_LIMITS } from './path-id';

const pipe = createValidationPipe({ envelopeFields: PATH_ID_FIELDS });

async function message(value: Record<string, string>, metatype: ArgumentMetadata['metatype']): Promise<string | undefined> {
  try {
    await pipe.transform(value, { metatype, type: 'body' });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the composed field rules', () => {
  // A name both too long and holding a NUL character: one reason, created or modified, for every resource.
  it.each([
    ['CreateAuthDto', CreateAuthDto, 'auth_name', FIELD_LIMITS.auth_name, {}],
    ['ModifyAuthDto', ModifyAuthDto, 'auth_name', FIELD_LIMITS.auth_name, {}],
    ['CreateGroupDto', CreateGroupDto, 'group_name', FIELD_LIMITS.group_name, {}],
    ['ModifyGroupDto', ModifyGroupDto, 'group_name', FIELD_LIMITS.group_name, {}],
    ['RegisterUserDto', RegisterUserDto, 'user_name', FIELD_LIMITS.user_name, { user_type: 'C', user_pwd: 'pw' }],
    ['ModifyUserDto', ModifyUserDto, 'user_name', FIELD_LIMITS.user_name, {}],
  ] as const)('%s: a name both too long and with a NUL is reported too long', async (_name, dto, field, max, rest) => {
    expect(await message({ ...rest, [field]: `\u0000${'n'.repeat(max)}` }, dto)).toBe(`too long ${field}`);
    expect(await message({ ...rest, [field]: `a\u0000` }, dto)).toBe(`invalid ${field}`);
    expect(await message({ ...rest, [field]: 'n'.repeat(max) }, dto)).toBeUndefined();
  });

  it('path ids take their lengths from the one table', () => {
    expect(ID_LIMITS).toEqual({
      auth_id: FIELD_LIMITS.auth_id,
      group_id: FIELD_LIMITS.group_id,
      user_login_id: FIELD_LIMITS.user_login_id,
    });
  });
});
