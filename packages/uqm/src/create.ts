/**
 * New 0.8 saves from scratch: every mandatory chunk, in the order the game writes them, with the
 * values given and zeros elsewhere.
 *
 * @module
 */
import { gameState, type GameState } from './game-state.js';
import type { UqmSave } from './save.js';
import type { StarInfo } from './star-info.js';

/** Options of {@link createUqmSave}. */
export interface CreateUqmSaveOptions {
  /** The save's name in the load menu. */
  readonly name?: string;
  readonly resUnits?: number;
  /** Fuel in game units (the display divides by 100). */
  readonly fuel?: number;
  readonly crew?: number;
  readonly date?: { readonly day: number; readonly month: number; readonly year: number };
  /** Harvest records (`Scan`). */
  readonly scan?: StarInfo;
  /** Game-state entries to set (the rest are 0). */
  readonly state?: Readonly<GameState>;
  /** The current star's map position (Sol: 1752, 1450). */
  readonly star?: { readonly x: number; readonly y: number };
}

/**
 * A vanilla 0.8 save: `Summ`, `GlSt`, `GmSt`, `Scan`, `Grps`, the random `BtGp` (empty), `Star`.
 *
 * @example
 * ```ts
 * import { encodeOrThrow } from '@savekit/core';
 * import { createUqmSave, uqmSave } from '@savekit/uqm';
 * const bytes = encodeOrThrow(uqmSave, createUqmSave({ name: 'New game', resUnits: 1000 }));
 * ```
 */
export function createUqmSave(options: CreateUqmSaveOptions = {}): UqmSave {
  const date = options.date ?? { day: 17, month: 2, year: 2155 };
  const state: GameState = {};
  const def = gameState(0).def;
  for (const f of def.type === 'bits' ? def.fields : []) state[f.name] = options.state?.[f.name] ?? 0;
  const zeros = (n: number) => new Array<number>(n).fill(0);
  return {
    magic: 'UMS\x01',
    summary: {
      sis: {
        logX: 0,
        logY: 0,
        resUnits: options.resUnits ?? 0,
        fuelOnBoard: options.fuel ?? 0,
        crewEnlisted: options.crew ?? 0,
        totalElementMass: 0,
        totalBioMass: 0,
        moduleSlots: zeros(16),
        driveSlots: zeros(11),
        jetSlots: zeros(8),
        numLanders: 1,
        elementAmounts: zeros(8),
      },
      shipName: 'VINDICATOR',
      commanderName: 'Zelnick',
      planetName: '',
      summary: {
        activity: 4,
        flags: 0,
        day: date.day,
        month: date.month,
        year: date.year,
        mCreditLo: 0,
        mCreditHi: 0,
        numShips: 0,
        numDevices: 0,
        shipList: zeros(12),
        deviceList: zeros(16),
      },
      name: options.name ?? 'New game',
    },
    chunks: [
      {
        id: 'GlSt',
        body: {
          globFlags: 0,
          crewCost: 0,
          fuelCost: 0,
          moduleCost: zeros(20),
          elementWorth: zeros(8),
          currentActivity: 4,
          day: date.day,
          month: date.month,
          year: date.year,
          tickCount: 0,
          dayInTicks: 0,
          autopilotX: 0,
          autopilotY: 0,
          ipLocationX: 0,
          ipLocationY: 0,
          shipOriginX: 0,
          shipOriginY: 0,
          shipFacing: 0,
          ipPlanet: 0,
          inOrbit: 0,
          travelAngle: 0,
          vectorWidth: 0,
          vectorHeight: 0,
          fractWidth: 0,
          fractHeight: 0,
          errorWidth: 0,
          errorHeight: 0,
          incrWidth: 0,
          incrHeight: 0,
        },
      },
      { id: 'GmSt', body: state },
      { id: 'Scan', body: options.scan ?? { systems: [] } },
      { id: 'Grps', body: { lastEncGroup: 0, groups: { entries: [] } } },
      {
        id: 'BtGp',
        body: { encounterId: 0, current: 0, starIndex: 0xffff, day: 0, month: 0, year: 0, groups: [], rest: undefined },
      },
      {
        id: 'Star',
        body: {
          x: options.star?.x ?? 1752,
          y: options.star?.y ?? 1450,
          type: 0,
          index: 0,
          prefix: 0,
          postfix: 0,
          rest: undefined,
        },
      },
    ],
  };
}
