// The Zippy format with `decode` = loading into a fresh Lua state (loadLua), for budgetSuite's child
// processes: the attacks on recorded sizes reach the Lua restorer only this way. Built output only
// (the child runs plain Node): `npx tsc -b packages/zippy` first.
import fengari from 'fengari';
import { format as zippy } from '../dist/index.js';
import { loadLua } from '../dist/lua/index.js';

const { lauxlib } = fengari;

/** @type {typeof zippy} */
export const format = {
  ...zippy,
  id: 'zippy-lua',
  decode: (input, options) => {
    if (!(input instanceof Uint8Array)) return zippy.decode(input, options);
    const loaded = loadLua(lauxlib.luaL_newstate(), input, options);
    return loaded._tag === 'Left' ? loaded : { _tag: 'Right', right: { value: loaded.right.file, warnings: [] } };
  },
};
