// Two busy loops per core, until stopped (SIGTERM or SIGINT): the load of a CI machine that other
// work shares, for `npm run test:stress`. Threads of one process, so that one signal stops them all.
import { availableParallelism } from 'node:os';
import { isMainThread, Worker } from 'node:worker_threads';

if (isMainThread) {
  const loops = Number(process.env.BUSY_LOOPS_PER_CORE ?? 2) * availableParallelism();
  for (let i = 0; i < loops; i++) new Worker(new URL(import.meta.url));
  console.log(`busy-loops: ${loops} loops on ${availableParallelism()} cores`);
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
} else {
  for (;;);
}
