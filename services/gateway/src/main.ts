import { loadConfigOrExit } from './config';
import { createEmbeddedProcess } from './embedded';

/** `npm start`: the whole product in one process. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const embedded = await createEmbeddedProcess(config);
  const { url } = await embedded.listen();
  embedded.log.info({ url, dataDir: config.DATA_DIR }, `QR shirt shop listening on ${url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    embedded.log.info({ signal }, 'shutting down');
    embedded.close().then(
      () => process.exit(0),
      (error: unknown) => {
        embedded.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
