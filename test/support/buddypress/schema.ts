/**
 * Our own DDL for the BuddyPress tables a migration reads (names, types, defaults and indexes as described in
 * shared/research/buddypress.md §1): WordPress users and usermeta, groups, group members and meta, invitations,
 * activity and activity meta. `P` is the table prefix (`wp_` by default on a real site).
 */
export function buddypressDdl(prefix: string): string[] {
  const p = prefix;
  return [
    `CREATE TABLE ${p}users (
      ID bigint(20) unsigned NOT NULL AUTO_INCREMENT,
      user_login varchar(60) NOT NULL DEFAULT '',
      user_pass varchar(255) NOT NULL DEFAULT '',
      user_nicename varchar(50) NOT NULL DEFAULT '',
      user_email varchar(100) NOT NULL DEFAULT '',
      user_url varchar(100) NOT NULL DEFAULT '',
      user_registered datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
      user_activation_key varchar(255) NOT NULL DEFAULT '',
      user_status int(11) NOT NULL DEFAULT 0,
      display_name varchar(250) NOT NULL DEFAULT '',
      PRIMARY KEY (ID), KEY user_login_key (user_login), KEY user_nicename (user_nicename), KEY user_email (user_email)
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}usermeta (
      umeta_id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
      user_id bigint(20) unsigned NOT NULL DEFAULT 0,
      meta_key varchar(255) DEFAULT NULL,
      meta_value longtext,
      PRIMARY KEY (umeta_id), KEY user_id (user_id), KEY meta_key (meta_key(191))
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_groups (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      creator_id bigint(20) NOT NULL,
      name varchar(100) NOT NULL,
      slug varchar(200) NOT NULL,
      description longtext NOT NULL,
      status varchar(10) NOT NULL DEFAULT 'public',
      parent_id bigint(20) NOT NULL DEFAULT 0,
      enable_forum tinyint(1) NOT NULL DEFAULT 1,
      date_created datetime NOT NULL,
      PRIMARY KEY (id), KEY creator_id (creator_id), KEY status (status), KEY parent_id (parent_id)
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_groups_members (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      group_id bigint(20) NOT NULL,
      user_id bigint(20) NOT NULL,
      inviter_id bigint(20) NOT NULL,
      is_admin tinyint(1) NOT NULL DEFAULT 0,
      is_mod tinyint(1) NOT NULL DEFAULT 0,
      user_title varchar(100) NOT NULL,
      date_modified datetime NOT NULL,
      comments longtext NOT NULL,
      is_confirmed tinyint(1) NOT NULL DEFAULT 0,
      is_banned tinyint(1) NOT NULL DEFAULT 0,
      invite_sent tinyint(1) NOT NULL DEFAULT 0,
      PRIMARY KEY (id), KEY group_id (group_id), KEY is_admin (is_admin), KEY is_mod (is_mod),
      KEY user_id (user_id), KEY inviter_id (inviter_id), KEY is_confirmed (is_confirmed)
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_groups_groupmeta (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      group_id bigint(20) NOT NULL,
      meta_key varchar(255) DEFAULT NULL,
      meta_value longtext,
      PRIMARY KEY (id), KEY group_id (group_id), KEY meta_key (meta_key(191))
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_invitations (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      user_id bigint(20) NOT NULL,
      inviter_id bigint(20) NOT NULL,
      invitee_email varchar(100) DEFAULT NULL,
      class varchar(120) NOT NULL,
      item_id bigint(20) NOT NULL,
      secondary_item_id bigint(20) DEFAULT NULL,
      type varchar(12) NOT NULL DEFAULT 'invite',
      content longtext,
      date_modified datetime NOT NULL,
      invite_sent tinyint(1) NOT NULL DEFAULT 0,
      accepted tinyint(1) NOT NULL DEFAULT 0,
      PRIMARY KEY (id), KEY user_id (user_id), KEY inviter_id (inviter_id), KEY invitee_email (invitee_email),
      KEY class (class), KEY item_id (item_id), KEY secondary_item_id (secondary_item_id), KEY type (type),
      KEY invite_sent (invite_sent), KEY accepted (accepted)
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_activity (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      user_id bigint(20) NOT NULL,
      component varchar(75) NOT NULL,
      type varchar(75) NOT NULL,
      action text NOT NULL,
      content longtext NOT NULL,
      primary_link text NOT NULL,
      item_id bigint(20) NOT NULL,
      secondary_item_id bigint(20) DEFAULT NULL,
      date_recorded datetime NOT NULL,
      hide_sitewide tinyint(1) DEFAULT 0,
      mptt_left int(11) NOT NULL DEFAULT 0,
      mptt_right int(11) NOT NULL DEFAULT 0,
      is_spam tinyint(1) NOT NULL DEFAULT 0,
      PRIMARY KEY (id), KEY date_recorded (date_recorded), KEY user_id (user_id), KEY item_id (item_id),
      KEY secondary_item_id (secondary_item_id), KEY component (component), KEY type (type),
      KEY mptt_left (mptt_left), KEY mptt_right (mptt_right), KEY hide_sitewide (hide_sitewide), KEY is_spam (is_spam)
    ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE ${p}bp_activity_meta (
      id bigint(20) NOT NULL AUTO_INCREMENT,
      activity_id bigint(20) NOT NULL,
      meta_key varchar(255) DEFAULT NULL,
      meta_value longtext,
      PRIMARY KEY (id), KEY activity_id (activity_id), KEY meta_key (meta_key(191))
    ) DEFAULT CHARSET=utf8mb4`,
  ];
}

/** PHP `serialize()` of arrays, strings and integers: enough for the meta values BuddyPress stores. */
export function phpSerialize(value: unknown): string {
  if (typeof value === 'number') return `i:${Math.trunc(value)};`;
  if (typeof value === 'string') return `s:${Buffer.byteLength(value)}:"${value}";`;
  if (Array.isArray(value))
    return `a:${value.length}:{${value.map((entry, i) => `i:${i};${phpSerialize(entry)}`).join('')}}`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return `a:${entries.length}:{${entries.map(([k, v]) => `${phpSerialize(k)}${phpSerialize(v)}`).join('')}}`;
  }
  return 'N;';
}

/** The columns the generator fills, per table (the others keep their defaults). */
export const COLUMNS = {
  users: [
    'ID',
    'user_login',
    'user_pass',
    'user_nicename',
    'user_email',
    'user_url',
    'user_registered',
    'display_name',
  ],
  usermeta: ['user_id', 'meta_key', 'meta_value'],
  bp_groups: [
    'id',
    'creator_id',
    'name',
    'slug',
    'description',
    'status',
    'parent_id',
    'enable_forum',
    'date_created',
  ],
  bp_groups_groupmeta: ['group_id', 'meta_key', 'meta_value'],
  bp_groups_members: [
    'id',
    'group_id',
    'user_id',
    'inviter_id',
    'is_admin',
    'is_mod',
    'user_title',
    'date_modified',
    'comments',
    'is_confirmed',
    'is_banned',
    'invite_sent',
  ],
  bp_invitations: ['user_id', 'inviter_id', 'class', 'item_id', 'type', 'date_modified'],
  bp_activity: [
    'id',
    'user_id',
    'component',
    'type',
    'action',
    'content',
    'primary_link',
    'item_id',
    'secondary_item_id',
    'date_recorded',
    'hide_sitewide',
    'mptt_left',
    'mptt_right',
    'is_spam',
  ],
  bp_activity_meta: ['activity_id', 'meta_key', 'meta_value'],
} as const;
