import { pathToFileURL } from 'node:url';

/** Whether `moduleUrl` is the file `tsx` was started with, not a module `npm run bench` imports. */
export const runDirectly = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;

/** The command-line options of every benchmark measured in timed rounds. */
export const roundOptions = {
  seconds: { type: 'string', default: '4' },
  rounds: { type: 'string', default: '3' },
} as const;
