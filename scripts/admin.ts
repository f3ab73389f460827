/**
 * Names an admin, for an operator, on the environment `npm start` uses (DATA_DIR, EVENTSTORE_URL,
 * LOOKUP_KEY_SECRET), while the product runs or not:
 *   npm run admin -- grant EMAIL
 * The account holding EMAIL, which must have verified it, becomes an admin whatever ADMIN_EMAILS
 * says: how an account that moved to an address by a change of address, or any account after the
 * first, is made one. Granting twice changes nothing.
 */
import { parseArgs } from 'node:util';
import {
  createAccounts,
  createCommandHandler,
  ensureLookupKeysInUse,
  isValidEmailAddress,
  systemClock,
} from '@qrshirt/core';
import { loadGatewayConfigOrExit, lookupKeysOf } from '@qrshirt/gateway';
import { openEventStore, restrictNewFiles } from '@qrshirt/runtime';

const NAME = 'admin';
const USAGE = `Usage: npm run ${NAME} -- grant EMAIL

Makes the account holding EMAIL an admin of the admin area (/admin), whatever ADMIN_EMAILS lists.
The account must have verified EMAIL (followed the link mailed to it, or signed in with Google).
Run it on the environment \`npm start\` uses (DATA_DIR, EVENTSTORE_URL, LOOKUP_KEY_SECRET); the
product may be running, and the account is an admin from its next request.

Options:
  -h, --help   this text
`;

const fail = (message: string, code: number): never => {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
};

let email = '';
try {
  const { values, positionals } = parseArgs({
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const [command, address, ...rest] = positionals;
  if (command !== 'grant' || address === undefined || rest.length > 0) fail('expected: grant EMAIL (see --help)', 2);
  email = address!.trim();
  if (!isValidEmailAddress(email)) fail(`not an email address: ${address}`, 2);
} catch (error) {
  fail(`${(error as Error).message} (see --help)`, 2);
}

const config = loadGatewayConfigOrExit();
restrictNewFiles();
const eventStore = openEventStore(config);
try {
  const keys = lookupKeysOf(config);
  await ensureLookupKeysInUse({ eventStore, keys, clock: systemClock });
  // The grant reads no name or address of the account's stream: the log's sealed fields stay sealed.
  const accounts = createAccounts({
    commands: createCommandHandler({ eventStore }),
    clock: systemClock,
    lookupKeys: keys,
  });
  const grant = await accounts.grantAdmin(email);
  switch (grant.outcome) {
    case 'granted':
      console.log(`${NAME}: ${email} (account ${grant.userId}) is an admin now`);
      break;
    case 'already':
      console.log(`${NAME}: ${email} (account ${grant.userId}) was an admin already`);
      break;
    case 'no-account':
      process.exitCode = 1;
      console.error(`${NAME}: no account holds ${email}: sign up with it first, then grant`);
      break;
    case 'unverified':
      process.exitCode = 1;
      console.error(
        `${NAME}: account ${grant.userId} holds ${email} but has not verified it: follow the link mailed to it (or reset the password), then grant`,
      );
      break;
  }
} catch (error) {
  process.exitCode = 1;
  console.error(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await eventStore.close();
}
