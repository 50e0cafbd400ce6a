/**
 * Writing MegaMod's current format (`MMV4`, uqm.md §5.3) from a vanilla save: 32-byte names and the
 * MegaMod summary fields, the game state grown to revision 5 (the new entries zero), scan records
 * grown to 108 bytes (nothing partly scavenged), every other chunk as it was.
 *
 * @module
 */
import { isRawChunk } from '@savekit/core';
import { gameState, type GameState } from './game-state.js';
import type { SaveChunk, Summary, UqmSave } from './save.js';
import type { StarInfo } from './star-info.js';

/** MegaMod's own summary fields, for {@link toMegaMod}. */
export interface MegaModOptions {
  readonly difficulty?: number;
  readonly extended?: number;
  readonly nomad?: number;
  readonly seed?: number;
  readonly shipSeed?: number;
  readonly resFactor?: number;
}

/**
 * A 16-byte name in MegaMod's 32-byte field: text stays text; a name with bytes kept after its NUL
 * keeps them, followed by the 16 zero bytes the wider field adds.
 */
function widened(name: Summary['shipName']): Summary['shipName'] {
  if (typeof name !== 'object' || name === null) return name;
  const tail = new Uint8Array(name.tail.length + 16);
  tail.set(name.tail);
  return { ...name, tail };
}

/** The same save as MegaMod writes it (`MMV4`). */
export function toMegaMod(save: UqmSave, options: MegaModOptions = {}): UqmSave {
  if (save.magic === 'MMV4') return save;
  if (save.magic !== 'UMS\x01')
    throw new RangeError(`converting ${save.magic} saves is not supported; read them as they are`);
  const summary: Summary = {
    ...save.summary,
    shipName: widened(save.summary.shipName),
    commanderName: widened(save.summary.commanderName),
    planetName: widened(save.summary.planetName),
    difficulty: options.difficulty ?? 0,
    extended: options.extended ?? 0,
    nomad: options.nomad ?? 0,
    seed: options.seed ?? 0,
    shipSeed: options.shipSeed ?? 0,
    resFactor: options.resFactor ?? 0,
  };
  const def = gameState(5).def;
  const revision5 = def.type === 'bits' ? def.fields.map((f) => f.name) : [];
  const chunks = save.chunks.map((c): SaveChunk => {
    if (isRawChunk(c)) return c;
    if (c.id === 'GmSt' && !('raw' in c.body)) {
      const vanilla = c.body as GameState;
      const grown: GameState = {};
      for (const name of revision5) grown[name] = name === '$pad' ? 0 : (vanilla[name] ?? 0);
      return { id: 'GmSt', body: grown } as SaveChunk;
    }
    if (c.id === 'Scan') {
      const scan = c.body as StarInfo;
      return {
        id: 'Scan',
        body: {
          ...scan,
          systems: scan.systems.map((s) => ({
            star: s.star,
            worlds: s.worlds.map((w) => ({ ...w, partial: new Uint8Array(96) })),
          })),
        },
      } as SaveChunk;
    }
    return c;
  });
  return { magic: 'MMV4', summary, chunks };
}
