/**
 * Checking values that come from outside the type system — a plugin module's exports, a JavaScript
 * caller's codec — by the members they must have. (Internal: not exported from the package.)
 *
 * @module
 */

/** What `typeof` must say of a member; `object` excludes `null`. */
export type MemberType = 'string' | 'function' | 'object';

/** Whether `value` is an object whose members named in `members` have the types given. */
export function hasMembers(value: unknown, members: Readonly<Record<string, MemberType>>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  // A `for…in` over the (plain, literal) member list: no array of entries made per call.
  for (const name in members) {
    const member = record[name];
    if (typeof member !== members[name] || member === null) return false;
  }
  return true;
}
