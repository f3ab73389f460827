/** `npm run bench`: every benchmark in one run, each figure as a ratio to its own baseline. */
import { benchEventStore, formatEventStoreFigures } from './event-store';
import { benchHttp, formatHttpFigures } from './http';

const connections = 50;
console.log(formatEventStoreFigures(await benchEventStore()));
console.log();
console.log(formatHttpFigures(await benchHttp({ seconds: 4, rounds: 3, connections }), connections));
