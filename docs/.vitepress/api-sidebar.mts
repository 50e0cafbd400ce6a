// The API reference's sidebars, one per package or entry point, from the one tree TypeDoc writes.
//
// Every page renders its whole sidebar on the server. The single tree listed all 1,164 API pages, so
// each of the 1,103 API pages rendered 1,164 links: 1.3 million sidebar items, about 70 s of a 170 s
// site build. Here a page lists its own package or entry point in full and the others as one link
// each, so a page renders at most some 260 items and the reader sees the part of the API they are in.
import type { DefaultTheme } from 'vitepress';

type Item = DefaultTheme.SidebarItem;

/** An entry point's node in TypeDoc's tree: it has a page of its own and member groups under it. */
const isEntry = (item: Item): boolean => item.link !== undefined && item.items !== undefined;

/** `item` as one link, its members left out. */
const linkOnly = (item: Item): Item => ({ text: item.text, link: item.link });

/**
 * The multi-sidebar for the API pages, keyed by path prefix (VitePress takes the longest key a page's
 * path starts with):
 * - `/api/`: every package as one link (the API index);
 * - a package: its members in full or, when it has entry points of its own, those as links;
 * - an entry point of such a package: its members in full, its sibling entry points as links.
 */
export function apiSidebars(tree: Item[]): DefaultTheme.SidebarMulti {
  const sidebars: DefaultTheme.SidebarMulti = {};
  /** The sidebar with `open` shown as `inside` and every other package as one link. */
  const around = (open: Item, inside: Item[]): Item[] => [
    {
      text: 'API reference',
      link: '/api/',
      items: tree.map((pkg) => (pkg === open ? { ...linkOnly(pkg), collapsed: false, items: inside } : linkOnly(pkg))),
    },
  ];
  sidebars['/api/'] = [{ text: 'API reference', link: '/api/', items: tree.map(linkOnly) }];
  for (const pkg of tree) {
    if (pkg.link === undefined) continue;
    const members = pkg.items ?? [];
    const entries = members.filter(isEntry);
    if (entries.length === 0) {
      sidebars[pkg.link] = around(pkg, members);
      continue;
    }
    sidebars[pkg.link] = around(
      pkg,
      members.map((item) => (isEntry(item) ? linkOnly(item) : item)),
    );
    for (const entry of entries) {
      sidebars[entry.link!] = around(
        pkg,
        members.map((item) =>
          item === entry ? { ...entry, collapsed: false } : isEntry(item) ? linkOnly(item) : item,
        ),
      );
    }
  }
  return sidebars;
}
