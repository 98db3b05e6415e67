-- The statements of auth-groups.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- AuthGroupsRepository.findOne: by id
SELECT "app_token" AS "appToken", "group_id" AS "groupId", "group_seq_id" AS "groupSeqId", "group_name" AS "groupName", "group_desc" AS "groupDesc", "group_type" AS "groupType", "group_state" AS "groupState", "group_auths" AS "groupAuths", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = $2;

-- AuthGroupsRepository.findForUpdate: by id, locked
SELECT "app_token" AS "appToken", "group_id" AS "groupId", "group_seq_id" AS "groupSeqId", "group_name" AS "groupName", "group_desc" AS "groupDesc", "group_type" AS "groupType", "group_state" AS "groupState", "group_auths" AS "groupAuths", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = $2 FOR UPDATE;

-- AuthGroupsRepository.list: all
SELECT "app_token" AS "appToken", "group_id" AS "groupId", "group_seq_id" AS "groupSeqId", "group_name" AS "groupName", "group_desc" AS "groupDesc", "group_type" AS "groupType", "group_state" AS "groupState", "group_auths" AS "groupAuths", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auth_groups" WHERE "app_token" = $1 ORDER BY "group_seq_id";

-- AuthGroupsRepository.list: by ids
SELECT "app_token" AS "appToken", "group_id" AS "groupId", "group_seq_id" AS "groupSeqId", "group_name" AS "groupName", "group_desc" AS "groupDesc", "group_type" AS "groupType", "group_state" AS "groupState", "group_auths" AS "groupAuths", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = ANY($2) ORDER BY "group_seq_id";

-- AuthGroupsRepository.authsOf: of a group
SELECT "a"."app_token" AS "appToken", "a"."auth_id" AS "authId", "a"."auth_seq_id" AS "authSeqId", "a"."auth_name" AS "authName", "a"."auth_desc" AS "authDesc", "a"."auth_state" AS "authState", "a"."auth_type" AS "authType", "a"."auth_level" AS "authLevel", "a"."parent_auth_id" AS "parentAuthId", "a"."sub_auth_flag" AS "subAuthFlag", "a"."create_time" AS "createTime", "a"."update_time" AS "updateTime" FROM "auths" "a"
  JOIN "auth_group_auths" "m" ON "m"."app_token" = "a"."app_token" AND "m"."auth_id" = "a"."auth_id"
  WHERE "m"."app_token" = $1 AND "m"."group_id" = $2;

-- AuthGroupsRepository.membersOf: of groups
SELECT "group_id" AS "groupId", "auth_id" AS "authId" FROM "auth_group_auths" WHERE "app_token" = $1 AND "group_id" = ANY($2);

-- AuthGroupsRepository.insert: required fields
INSERT INTO "auth_groups"("app_token", "group_id", "group_name", "group_desc", "group_type", "group_state", "group_auths") VALUES ($1, $2, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "group_seq_id", "create_time", "update_time";

-- AuthGroupsRepository.update: one field
UPDATE "auth_groups" SET "group_name" = $1, "update_time" = now() WHERE ("app_token" = $2 AND "group_id" = $3);

-- AuthGroupsRepository.deleteMembers: of a group
DELETE FROM "auth_group_auths" WHERE ("app_token" = $1 AND "group_id" = $2);

-- AuthGroupsRepository.insertMembers: existing auths of a list
INSERT INTO auth_group_auths (app_token, group_id, auth_id)
  SELECT $1::varchar, $2::varchar, a.auth_id FROM auths a WHERE a.app_token = $1 AND a.auth_id = ANY($3::varchar[])
  RETURNING auth_id;
