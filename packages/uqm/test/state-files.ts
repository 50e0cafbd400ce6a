// State-file pieces written by the codecs, for tests that build randgrp.dat and defgrp.dat by hand.
import { encodeOrThrow } from '@savekit/core';
import { groupHeader } from '@savekit/uqm';

/**
 * A GROUP_HEADER (star 82, 1 Jan 2155) of `numGroups` groups at `offsets` (offset 0, the group list,
 * left 0; the rest of the 64 zero).
 */
export function groupHeaderBytes(numGroups: number, offsets: ReadonlyArray<number>): Uint8Array {
  const bytes = encodeOrThrow(groupHeader, {
    numGroups: Math.min(numGroups, 64),
    day: 1,
    month: 1,
    pad3: undefined,
    starIndex: 82,
    year: 2155,
    offsets: [0, ...offsets, ...new Array<number>(64 - offsets.length).fill(0)],
  });
  // NumGroups past the 64 slots (a hostile header the declaration refuses to write) set by hand.
  bytes[0] = numGroups;
  return bytes;
}
