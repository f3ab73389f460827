import { existsSync } from 'node:fs';
import { infraRequired } from '@qrshirt/test-support';

/** Debian's chromium (scripts/infra/install-chromium.sh); playwright never downloads browsers here. */
export const CHROMIUM = '/usr/bin/chromium';

export const chromiumMissing = existsSync(CHROMIUM)
  ? null
  : `${CHROMIUM} not found (run scripts/infra/install-chromium.sh)`;

/** CI names chromium in REQUIRE_INFRA: a missing browser fails the run instead of skipping it. */
export const chromiumRequired = infraRequired('chromium');
