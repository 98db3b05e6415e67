/** The part of an auth the permission rules look at. */
export interface AuthNode {
  authId: string;
  authState: string | null;
  parentAuthId: string | null;
}

/** What a user is granted: the auths of `user_auths`, and per group of `user_auth_groups` its auths. */
export interface Grants {
  direct: readonly string[];
  groups: readonly { groupId: string; authIds: readonly string[] }[];
}

/** How an effective auth reaches the user: `direct`, or `group:<group_id>`. */
export type GrantVia = 'direct' | `group:${string}`;

/** `via` of a held auth: also `ancestor:<auth_id>` when an effective ancestor passes it down. */
export type HoldVia = GrantVia | `ancestor:${string}`;

export const AUTH_STATE_OK = '1';

/**
 * The user's effective auths: the auths of `user_auths` plus those of the groups of
 * `user_auth_groups`, deduplicated, only those that exist with `auth_state` 1. A direct
 * grant is reported before a group one; among groups, the first in `grants.groups` order.
 */
export function effectiveAuths(grants: Grants, auths: ReadonlyMap<string, AuthNode>): Map<string, GrantVia> {
  const effective = new Map<string, GrantVia>();
  const grant = (authId: string, via: GrantVia) => {
    if (effective.has(authId)) return;
    if (auths.get(authId)?.authState === AUTH_STATE_OK) effective.set(authId, via);
  };
  for (const authId of grants.direct) grant(authId, 'direct');
  for (const group of grants.groups) for (const authId of group.authIds) grant(authId, `group:${group.groupId}`);
  return effective;
}

/**
 * Whether the user holds `target`. Rule: the target must exist with `auth_state` 1, and
 * either it is effective for the user (direct, then group), or one of its ancestors
 * (following `parent_auth_id`) is, the nearest first, with every auth between the target
 * and that ancestor in `auth_state` 1 too (a disabled auth passes nothing down).
 * `auths` must hold the target's parent chain. At most `maxAncestors` ancestors are followed
 * (`AUTH_MAX_DEPTH - 1`: the auths service keeps every chain within it, and refuses cycles).
 */
export function holdsAuth(
  target: string,
  effective: ReadonlyMap<string, GrantVia>,
  auths: ReadonlyMap<string, AuthNode>,
  maxAncestors: number,
): { has: boolean; via: HoldVia | null } {
  const node = auths.get(target);
  if (node?.authState !== AUTH_STATE_OK) return { has: false, via: null };
  const direct = effective.get(target);
  if (direct) return { has: true, via: direct };

  const seen = new Set([target]);
  let parentId = node.parentAuthId;
  for (let depth = 0; parentId && depth < maxAncestors && !seen.has(parentId); depth++) {
    if (effective.has(parentId)) return { has: true, via: `ancestor:${parentId}` };
    const parent = auths.get(parentId);
    if (parent?.authState !== AUTH_STATE_OK) break;
    seen.add(parentId);
    parentId = parent.parentAuthId;
  }
  return { has: false, via: null };
}
