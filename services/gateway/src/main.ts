import { LookupKeysError } from '@qrshirt/core';
import { runProcess } from '@qrshirt/runtime';
import { loadConfigOrExit } from './config';
import { createEmbeddedProcess } from './embedded';

/** `npm start`: the whole product in one process. */
const config = loadConfigOrExit();
await runProcess(
  'gateway',
  async () => {
    const embedded = await createEmbeddedProcess(config);
    return {
      log: embedded.log,
      async start() {
        const { url, opsUrl } = await embedded.listen();
        embedded.log.info({ url, opsUrl, dataDir: config.DATA_DIR }, `QR shirt shop listening on ${url}`);
      },
      close: () => embedded.close(),
    };
  },
  // Not a crash: the log or the secret needs an operator.
  { isOperatorError: (error): error is LookupKeysError => error instanceof LookupKeysError },
);
