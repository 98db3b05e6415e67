import type { TestAccountClient, Fields } from '@geoaccount/client/internal';

/** Creates an auth through the API and fails the test unless it answers 201/90000. */
export async function seedAuth(client: TestAccountClient, authId: string, fields: Fields = {}): Promise<void> {
  const res = await client.createAuth(authId, { auth_name: `name of ${authId}`, ...fields });
  if (res.status !== 201) throw new Error(`seedAuth ${authId}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}

/** Creates several auths, in order (parents first). */
export async function seedAuths(client: TestAccountClient, ...authIds: string[]): Promise<void> {
  for (const id of authIds) await seedAuth(client, id);
}

/** Creates an auth group through the API and fails the test unless it answers 201/90000. */
export async function seedGroup(client: TestAccountClient, groupId: string, fields: Fields = {}): Promise<void> {
  const res = await client.createGroup(groupId, { group_name: `name of ${groupId}`, ...fields });
  if (res.status !== 201) throw new Error(`seedGroup ${groupId}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}

/** The `YYYY-MM-DD HH:MM:SS` shape of create_time / update_time. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
