import type { TestAccountClient, Fields } from '@geoaccount/client/internal';

/** A valid registration: the fields the contract requires. */
export const NEW_USER = { user_name: 'Alice', user_type: 'C', user_pwd: 'P@ssw0rd!' } as const;

/** Registers a user through the API and fails the test unless it answers 201/90000; returns its user_id. */
export async function seedUser(client: TestAccountClient, loginId: string, fields: Fields = {}): Promise<string> {
  const res = await client.registerUser(loginId, { ...NEW_USER, ...fields });
  const body = res.body as { response_code?: string; user_id?: string };
  if (res.status !== 201 || body.response_code !== '90000' || !body.user_id) {
    throw new Error(`seedUser ${loginId}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  }
  return body.user_id;
}

/** The body of a user read back when only the required fields were registered. */
export function userBody(loginId: string, userId: string, fields: Record<string, string | null> = {}): Record<string, string | null> {
  return {
    user_id: userId,
    user_login_id: loginId,
    org_id: null,
    user_pwd: null,
    user_pwd_encrypt: null,
    user_name: NEW_USER.user_name,
    user_short_name: null,
    user_type: NEW_USER.user_type,
    is_domain_user: '0',
    cert_type: null,
    cert_id: null,
    cert_id_encrypt: null,
    user_mobile: null,
    user_mobile_encrypt: null,
    user_auths: null,
    user_auth_groups: null,
    user_extends: null,
    ...fields,
  };
}

export const OK = { response_code: '90000', response_message: 'success' } as const;
export const NO_DATA = 'query succeeded, no data';
