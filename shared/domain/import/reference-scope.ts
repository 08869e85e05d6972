import { normalizeUsername, usernameProblem } from '../users/index.ts';
import { ImportError } from './import-error.ts';

/** What a reference of the file can name. Lessons are named within their course (`lessonRef`). */
export type RefKind = 'user' | 'space' | 'topic' | 'course' | 'lesson' | 'feed' | 'comment';

/** The one name of a lesson: lesson refs are unique within their course only. */
export const lessonRef = (course: string, lesson: string): string => `${course}\u0000${lesson}`;

const fail = (where: string, message: string): never => {
  throw new ImportError(`${where}: ${message}`);
};

/**
 * Where each name of the file points, checked before anything is read or written. Sections register their refs
 * (in file order, so a reference can only name something listed earlier, which rules out cycles) and check the
 * references they make. A user reference resolves first to a `ref` of the file's users, else to the login of an
 * existing user: `externalLogins` remembers where each was first used, so the message can name the item when the
 * table says it does not exist.
 */
export class ReferenceScope {
  readonly #refs = new Map<RefKind, Map<string, number>>();
  readonly #values = new Map<string, Map<string, string>>();
  readonly externalLogins = new Map<string, string>();

  /** Registers an item's ref; a second item with the same ref is refused (`shown` is the ref as the file wrote it). */
  define(kind: RefKind, ref: string, index: number, where: string, shown = ref): void {
    let refs = this.#refs.get(kind);
    if (!refs) {
      refs = new Map();
      this.#refs.set(kind, refs);
    }
    if (refs.has(ref)) fail(where, `duplicate ref "${shown}"`);
    refs.set(ref, index);
  }

  /** The position of a registered ref in its section, or undefined. */
  indexOf(kind: RefKind, ref: string): number | undefined {
    return this.#refs.get(kind)?.get(ref);
  }

  /** A reference to an item of the file; unknown names are refused. Returns the item's position. */
  require(kind: RefKind, reference: string, where: string, what: string = kind): number {
    const index = this.indexOf(kind, reference);
    return index ?? fail(where, `unknown ${what} ref "${reference}"`);
  }

  /** A user reference: a ref of the file's users, or else a syntactically valid login checked later. */
  user(reference: string, where: string): void {
    if (this.indexOf('user', reference) !== undefined) return;
    const login = normalizeUsername(reference);
    if (usernameProblem(login) !== undefined) {
      fail(where, `unknown user "${reference}" (neither a ref of this file's users nor a login)`);
    }
    if (!this.externalLogins.has(login))
      this.externalLogins.set(login, `${where}: unknown user "${reference}"`);
  }

  /** A value that must be unique across the file within `namespace` (logins, e-mails, slugs). */
  unique(namespace: string, value: string, where: string, what: string): void {
    let seen = this.#values.get(namespace);
    if (!seen) {
      seen = new Map();
      this.#values.set(namespace, seen);
    }
    const first = seen.get(value);
    if (first !== undefined) fail(where, `${what} "${value}" is also used by ${first}`);
    seen.set(value, where);
  }

  /** Refuses an entry listed twice in one list of an item (members, topics of a feed). */
  static distinct<T>(
    items: readonly T[],
    nameOf: (item: T) => string,
    where: (item: T, index: number) => string,
    what = '',
  ): void {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const value = nameOf(item);
      if (seen.has(value)) fail(where(item, index), `${what ? `${what} ` : ''}"${value}" is listed twice`);
      seen.add(value);
    });
  }
}
