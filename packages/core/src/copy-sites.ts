/**
 * Copies of template objects, each kind of template through a copying site of its own.
 *
 * Copying a template (`{ ...template }`) makes an object of the template's hidden class with its
 * keys in place, in one allocation, as long as the copying site has seen few hidden classes. A site
 * shared by every kind of object (every structure of a save) turns megamorphic after four and
 * becomes a generic copy some seven times slower. So each template key sequence gets one of a fixed
 * set of sites, written out below, in the order they are first asked for; past them, all share the last.
 *
 * @module
 */

type Copy = <T extends object>(template: T) => T;

// Separate functions, so each is a site of its own (a loop or one function would be one site).
const SITES: ReadonlyArray<Copy> = [
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
  (t) => ({ ...t }),
];

/** The site given to each key sequence so far (bounded: later sequences share the last site). */
const ASSIGNED = new Map<string, Copy>();

/**
 * The copier for templates with the keys `keys` (in order): the same function for the same keys
 * every time, so templates with one hidden class always go through one site.
 */
export function templateCopier(keys: ReadonlyArray<string>): Copy {
  const last = SITES[SITES.length - 1]!;
  if (ASSIGNED.size >= SITES.length - 1) return ASSIGNED.get(JSON.stringify(keys)) ?? last;
  const key = JSON.stringify(keys);
  let site = ASSIGNED.get(key);
  if (site === undefined) {
    site = SITES[ASSIGNED.size]!;
    ASSIGNED.set(key, site);
  }
  return site;
}
