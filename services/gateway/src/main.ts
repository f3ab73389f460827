import { LookupKeysError } from '@qrshirt/core';
import { stopOnSignals } from '@qrshirt/runtime';
import { loadConfigOrExit } from './config';
import { createEmbeddedProcess } from './embedded';

/** `npm start`: the whole product in one process. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const embedded = await createEmbeddedProcess(config).catch((error: unknown) => {
    if (!(error instanceof LookupKeysError)) throw error;
    // Not a crash: the log or the secret needs an operator, whom a stack trace would not help.
    console.error(`gateway: ${error.message}`);
    process.exit(2);
  });
  const { url, opsUrl } = await embedded.listen();
  embedded.log.info({ url, opsUrl, dataDir: config.DATA_DIR }, `QR shirt shop listening on ${url}`);

  stopOnSignals({ log: embedded.log, stop: () => embedded.close() });
}

await main();
