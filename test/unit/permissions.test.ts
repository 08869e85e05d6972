import { describe, expect, it } from 'vitest';
import type { Caller, CommunityRole, HostRole } from '../../shared/domain/auth/caller.ts';
import * as permissions from '../../shared/domain/auth/permissions.ts';
import type { Membership, SpaceRole, SpaceVisibility } from '../../shared/domain/auth/permissions.ts';

/**
 * The permission module as a matrix (docs/ARCHITECTURE.md §7). Every expectation below is written from
 * spec/decisions.md ("Users, profiles and roles") and community-api.md ("Authentication" 3), not from the code:
 *
 * - host administrators (manage_options, list_users, super admin) are community admins everywhere;
 * - a global admin acts as space admin everywhere; a global moderator at least as space moderator;
 * - `community_moderator` in a space: global admin or moderator, or space admin or moderator;
 * - `can_add_member` in a space: global admin, or space admin;
 * - course admin: the course's admins, community admins, the global `course_admin` role, host `manage_options`;
 * - enrolled: an active membership of the course (quiz submission also admits course admins);
 * - `pending` members are not members yet.
 */

type CallerKind =
  | 'host_admin'
  | 'community_admin'
  | 'moderator'
  | 'course_admin'
  | 'course_creator'
  | 'member';
type MembershipKind = 'none' | 'pending' | SpaceRole;

const CALLER_KINDS: readonly CallerKind[] = [
  'host_admin',
  'community_admin',
  'moderator',
  'course_admin',
  'course_creator',
  'member',
];
const MEMBERSHIP_KINDS: readonly MembershipKind[] = [
  'none',
  'pending',
  'member',
  'student',
  'moderator',
  'admin',
];

const CALLER_ID = 7;
const OTHER_ID = 8;

function caller(kind: CallerKind): Caller {
  const hostRole: HostRole = kind === 'host_admin' ? 'administrator' : 'member';
  const roles: Record<CallerKind, CommunityRole[]> = {
    host_admin: [],
    community_admin: ['admin'],
    moderator: ['moderator'],
    course_admin: ['course_admin'],
    course_creator: ['course_creator'],
    member: [],
  };
  return { id: CALLER_ID, username: kind, hostRole, communityRoles: roles[kind], status: 'active' };
}

function membership(kind: MembershipKind): Membership | undefined {
  if (kind === 'none') return undefined;
  if (kind === 'pending') return { role: 'member', status: 'pending' };
  return { role: kind, status: 'active' };
}

/** Pending memberships of every role are still not memberships. */
const PENDING_ROLES: readonly SpaceRole[] = ['admin', 'moderator', 'member', 'student'];

const isGlobalAdmin = (kind: CallerKind) => kind === 'host_admin' || kind === 'community_admin';
const isActiveRole = (kind: MembershipKind): kind is SpaceRole => kind !== 'none' && kind !== 'pending';

// ---- Caller-only decisions --------------------------------------------------------------------------------------

const CALLER_DECISIONS: Record<string, Record<CallerKind, boolean>> = {
  hasManageOptions: {
    host_admin: true,
    community_admin: false,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  hasListUsers: {
    host_admin: true,
    community_admin: false,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  isHostSuperAdmin: {
    host_admin: true,
    community_admin: false,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  isCommunityAdmin: {
    host_admin: true,
    community_admin: true,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  isCommunityModerator: {
    host_admin: true,
    community_admin: true,
    moderator: true,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  // "Administrator": /admin/topics*, quiz admin, migrations.
  isAdministrator: {
    host_admin: true,
    community_admin: true,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  // Feed lists without a visibility filter, and other members' unpublished feeds: community moderators.
  canSeeAllFeeds: {
    host_admin: true,
    community_admin: true,
    moderator: true,
    course_admin: false,
    course_creator: false,
    member: false,
  },
  // GET /admin/general: community-admin permission or host super admin.
  canReadGeneralSettings: {
    host_admin: true,
    community_admin: true,
    moderator: false,
    course_admin: false,
    course_creator: false,
    member: false,
  },
};

// ---- Space and course decisions: (caller, membership) -----------------------------------------------------------

function expectedSpaceRole(who: CallerKind, member: MembershipKind): SpaceRole | undefined {
  if (isGlobalAdmin(who)) return 'admin';
  const own = isActiveRole(member) ? member : undefined;
  if (own === 'admin') return 'admin';
  if (who === 'moderator') return 'moderator';
  return own;
}

const SPACE_DECISIONS: Record<string, (who: CallerKind, member: MembershipKind) => unknown> = {
  effectiveSpaceRole: expectedSpaceRole,
  isSpaceModerator: (who, member) =>
    isGlobalAdmin(who) || who === 'moderator' || member === 'admin' || member === 'moderator',
  canAddMember: (who, member) => isGlobalAdmin(who) || member === 'admin',
  isSpaceMember: (who, member) => isGlobalAdmin(who) || who === 'moderator' || isActiveRole(member),
  isCourseAdmin: (who, member) => isGlobalAdmin(who) || who === 'course_admin' || member === 'admin',
  // Quiz submission (decisions.md): enrolled, or a course admin, who is never refused as "not enrolled".
  isEnrolled: (who, member) => isActiveRole(member) || isGlobalAdmin(who) || who === 'course_admin',
  // Pending lesson comments under content moderation: course admins and the course's moderators.
  canModerateCourseComments: (who, member) =>
    isGlobalAdmin(who) ||
    who === 'course_admin' ||
    who === 'moderator' ||
    member === 'admin' ||
    member === 'moderator',
};

// ---- Ownership decisions: (caller, whose resource) --------------------------------------------------------------

const OWNER_DECISIONS: Record<string, (who: CallerKind, own: boolean) => boolean> = {
  isOwner: (_who, own) => own,
  isOwnerOrModerator: (who, own) => own || isGlobalAdmin(who) || who === 'moderator',
};

const VISIBILITIES: readonly SpaceVisibility[] = ['everybody', 'logged_in', 'admin_only'];

// ---- Feed decisions (decisions.md "Topics and feeds"): (caller, membership, feed or space) -------------------------

/** Members of a space: active members in any role, global admins and global moderators. */
const isMemberOf = (who: CallerKind, member: MembershipKind) =>
  isGlobalAdmin(who) || who === 'moderator' || isActiveRole(member);
/** Moderators of a space: its admins and moderators, global admins and global moderators. */
const moderates = (who: CallerKind, member: MembershipKind) =>
  isGlobalAdmin(who) || who === 'moderator' || member === 'admin' || member === 'moderator';

const FEED_VARIANTS = [
  { own: true, published: true, visibility: 'public' },
  { own: false, published: true, visibility: 'public' },
  { own: false, published: true, visibility: 'members' },
  { own: true, published: true, visibility: 'members' },
  { own: true, published: false, visibility: 'public' },
  { own: false, published: false, visibility: 'public' },
  { own: false, published: false, visibility: 'members' },
] as const;

const expectedCanSeeFeed = (who: CallerKind, member: MembershipKind, feed: (typeof FEED_VARIANTS)[number]) =>
  (feed.visibility === 'public' || isMemberOf(who, member)) &&
  (feed.published || feed.own || moderates(who, member));
const expectedCanManageFeed = (who: CallerKind, member: MembershipKind, own: boolean) =>
  own || moderates(who, member);
const expectedCanPostInSpace = (who: CallerKind, member: MembershipKind, restricted: boolean) =>
  isMemberOf(who, member) && (!restricted || moderates(who, member));

/** `user_space_visibility`: only `admin_only` restricts, to the owner and community moderators. */
const expectedCanViewProfileSpaces = (who: CallerKind, own: boolean, visibility: SpaceVisibility) =>
  visibility !== 'admin_only' || own || isGlobalAdmin(who) || who === 'moderator';

const decisions = permissions as unknown as Record<string, unknown>;
const decide = (name: string) => decisions[name] as (...args: unknown[]) => unknown;

describe('permission matrix', () => {
  it('covers every exported decision function', () => {
    const exported = Object.entries(permissions)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    const tested = [
      ...Object.keys(CALLER_DECISIONS),
      ...Object.keys(SPACE_DECISIONS),
      ...Object.keys(OWNER_DECISIONS),
      'canViewProfileSpaces',
      'canSeeFeed',
      'canManageFeed',
      'canPostInSpace',
    ].sort();
    expect(exported).toEqual(tested);
  });

  describe.each(Object.entries(CALLER_DECISIONS))('%s', (name, table) => {
    it.each(CALLER_KINDS.map((kind) => [kind, table[kind]] as const))('%s → %s', (kind, expected) => {
      expect(decide(name)(caller(kind))).toBe(expected);
    });
  });

  describe.each(Object.entries(SPACE_DECISIONS))('%s', (name, expectation) => {
    const cases = CALLER_KINDS.flatMap((who) =>
      MEMBERSHIP_KINDS.map((member) => [who, member, expectation(who, member)] as const),
    );
    it.each(cases)('%s with membership %s → %s', (who, member, expected) => {
      expect(decide(name)(caller(who), membership(member))).toBe(expected);
    });

    it.each(CALLER_KINDS)('pending memberships of any role count as none for %s', (who) => {
      for (const role of PENDING_ROLES) {
        expect(decide(name)(caller(who), { role, status: 'pending' })).toBe(expectation(who, 'none'));
      }
    });
  });

  describe.each(Object.entries(OWNER_DECISIONS))('%s', (name, expectation) => {
    const cases = CALLER_KINDS.flatMap((who) =>
      [true, false].map((own) => [who, own, expectation(who, own)] as const),
    );
    it.each(cases)('%s, own resource %s → %s', (who, own, expected) => {
      expect(decide(name)(caller(who), own ? CALLER_ID : OTHER_ID)).toBe(expected);
    });
  });

  describe('canViewProfileSpaces', () => {
    const cases = CALLER_KINDS.flatMap((who) =>
      [true, false].flatMap((own) =>
        VISIBILITIES.map(
          (visibility) => [who, own, visibility, expectedCanViewProfileSpaces(who, own, visibility)] as const,
        ),
      ),
    );
    it.each(cases)('%s, own profile %s, visibility %s → %s', (who, own, visibility, expected) => {
      expect(permissions.canViewProfileSpaces(caller(who), own ? CALLER_ID : OTHER_ID, visibility)).toBe(
        expected,
      );
    });
  });

  describe('feeds', () => {
    const pairs = CALLER_KINDS.flatMap((who) => MEMBERSHIP_KINDS.map((member) => [who, member] as const));
    const access = (feed: (typeof FEED_VARIANTS)[number]) => ({
      authorId: feed.own ? CALLER_ID : OTHER_ID,
      published: feed.published,
      visibility: feed.visibility,
    });

    it.each(pairs)('canSeeFeed: %s with membership %s, every kind of feed', (who, member) => {
      for (const feed of FEED_VARIANTS) {
        expect(
          permissions.canSeeFeed(caller(who), access(feed), membership(member)),
          JSON.stringify(feed),
        ).toBe(expectedCanSeeFeed(who, member, feed));
      }
    });

    it.each(pairs)('canManageFeed: %s with membership %s, own feed or not', (who, member) => {
      for (const feed of FEED_VARIANTS) {
        expect(permissions.canManageFeed(caller(who), access(feed), membership(member))).toBe(
          expectedCanManageFeed(who, member, feed.own),
        );
      }
    });

    it.each(pairs)('canPostInSpace: %s with membership %s, restricted or not', (who, member) => {
      for (const restricted of [false, true]) {
        expect(
          permissions.canPostInSpace(caller(who), { restrictedPostOnly: restricted }, membership(member)),
        ).toBe(expectedCanPostInSpace(who, member, restricted));
      }
    });
  });

  describe('composite rules of the contract', () => {
    // Quiz submission: enrolled student, or a course admin (decisions.md, Quizzes: "not enrolled (and not a course admin)").
    const maySubmitQuiz = (who: CallerKind, member: MembershipKind) =>
      permissions.isEnrolled(caller(who), membership(member));
    it.each(CALLER_KINDS.flatMap((who) => MEMBERSHIP_KINDS.map((member) => [who, member] as const)))(
      'quiz submission: %s with course membership %s',
      (who, member) => {
        const expected = isActiveRole(member) || isGlobalAdmin(who) || who === 'course_admin';
        expect(maySubmitQuiz(who, member)).toBe(expected);
      },
    );

    it('space roles only ever rise with a global role, never fall', () => {
      const rank = (role: SpaceRole | undefined) =>
        role === undefined ? 0 : { student: 1, member: 1, moderator: 2, admin: 3 }[role];
      for (const who of CALLER_KINDS) {
        for (const member of MEMBERSHIP_KINDS) {
          const effective = permissions.effectiveSpaceRole(caller(who), membership(member));
          const own = isActiveRole(member) ? member : undefined;
          expect(rank(effective), `${who}/${member}`).toBeGreaterThanOrEqual(rank(own));
        }
      }
    });
  });
});
