import * as U from '@savekit/uqm';
import { decodeOrThrow } from '@savekit/core';
import { readFileSync } from 'node:fs';
for (const f of ['01-Start.uqmsave.dat','uqmsave.12','uqmsave.16','uqmsave.17']) {
const save = decodeOrThrow(U.uqmSave, readFileSync('/work/wt/shared/vectors-found/uqm/'+f));
console.log(f, JSON.stringify(save.summary.sis.driveSlots), JSON.stringify(save.summary.sis.jetSlots), JSON.stringify(save.summary.sis.moduleSlots), save.summary.shipName, save.summary.sis.numLanders, JSON.stringify(U.roster(save).map(s=>[s.race,s.raceId,s.index,s.captainsNameIndex,s.crewLevel,s.maxCrew,s.energyLevel,s.maxEnergy])), JSON.stringify(U.chunkOf(save,'Star')?.body), JSON.stringify(U.chunkOf(save,'GlSt')?.body.currentActivity));
}
