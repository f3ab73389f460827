import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadCpu } from '../bench/thread-cpu';

/** A fixed amount of work (about 0.3 s of CPU here), the same on either thread, however busy the machine. */
const HASHES = 150_000;

function work(): void {
  const block = Buffer.alloc(1024, 7);
  for (let i = 0; i < HASHES; i++) createHash('sha256').update(block).digest();
}

const workInWorker = `
  const { createHash } = require('node:crypto');
  const block = Buffer.alloc(1024, 7);
  for (let i = 0; i < ${HASHES}; i++) createHash('sha256').update(block).digest();
  require('node:worker_threads').parentPort.postMessage('done');
  setInterval(() => {}, 1000);
`;

describe.runIf(process.platform === 'linux')("a process's CPU by thread", () => {
  it('tells the main thread from the others', async () => {
    const before = threadCpu(process.pid)!;
    work();
    const afterMain = threadCpu(process.pid)!;
    const worker = new Worker(workInWorker, { eval: true });
    // Read while the worker still runs: a thread that ends takes its time along.
    await new Promise((resolve) => worker.once('message', resolve));
    const afterWorker = threadCpu(process.pid)!;
    await worker.terminate();
    const onMain = afterMain.main - before.main;
    expect(onMain).toBeGreaterThan(50_000);
    expect(afterWorker.others - afterMain.others).toBeGreaterThan(onMain / 2);
  });

  it('answers undefined for a process that is not there', () => {
    expect(threadCpu(2 ** 30)).toBeUndefined();
  });
});
