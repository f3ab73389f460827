import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** How a backup command stops: one line on stderr naming it; exit 2 for what the caller got wrong. */
export const failWith =
  (name: string) =>
  (message: string, code = 1): never => {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(code);
  };

/** The command's options, or its usage on `--help`, or `fail` with exit 2 for a line it cannot read. */
export function parseCommandLine<const T extends Options>(
  options: T,
  usage: string,
  fail: ReturnType<typeof failWith>,
) {
  try {
    const { values } = parseArgs({ options });
    if ((values as { help?: unknown }).help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    return values;
  } catch (error) {
    return fail(`${(error as Error).message} (see --help)`, 2);
  }
}
