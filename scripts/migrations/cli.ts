import { parseArgs } from 'node:util';
import { loadGatewayConfigOrExit } from '@qrshirt/gateway';
import { restrictNewFiles } from '@qrshirt/runtime';

const DEFAULT_BATCH_SIZE = 500;

/**
 * The start every migration script shares: `--batch-size N` and `--help` (whose text is `usage`
 * with the default batch size in it), then the gateway's configuration, with what it writes into
 * DATA_DIR kept owner-only. A wrong argument exits 2 with one line.
 */
export function startMigration(name: string, usage: (defaultBatchSize: number) => string) {
  const fail = (message: string, code = 1): never => {
    console.error(`${name}: ${message}`);
    process.exit(code);
  };
  let batchSize = DEFAULT_BATCH_SIZE;
  try {
    const { values } = parseArgs({
      options: { 'batch-size': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(usage(DEFAULT_BATCH_SIZE));
      process.exit(0);
    }
    if (values['batch-size'] !== undefined) {
      batchSize = Number(values['batch-size']);
      if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
        fail(`--batch-size must be a whole number of at least 1, got ${values['batch-size']}`, 2);
      }
    }
  } catch (error) {
    fail(`${(error as Error).message} (see --help)`, 2);
  }
  const config = loadGatewayConfigOrExit();
  restrictNewFiles();
  const say = (line: string): boolean => process.stderr.write(`${name}: ${line}\n`);
  return { batchSize, config, fail, say };
}
