/** The bundled samples (examples/saves, copied beside the app by the build); Skirmish comes with its plugin. */
export const SAMPLES: ReadonlyArray<{ name: string; label: string; plugin?: string }> = [
  { name: 'edge-01.esg', label: 'EDGE' },
  { name: 'uqm-01.sav', label: 'UQM' },
  { name: 'zippy-01.zsav', label: 'Zippy' },
  { name: 'terrarum-01.tevd', label: 'Terrarum' },
  { name: 'skirmish-01.sks', label: 'Skirmish (plugin)', plugin: 'plugins/skirmish.js' },
];
