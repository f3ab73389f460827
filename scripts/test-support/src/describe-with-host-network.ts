import { afterAll, beforeAll, describe } from 'vitest';
import { createHostNetwork, type HostNetwork, hostNetworkUnavailable } from './host-network';
import { infraRequired } from './require-infra';

/**
 * A describe block whose tests get a HostNetwork of `hosts` (see createHostNetwork), made before
 * them and destroyed after them, failed or not: every process left in its namespaces is killed.
 * It skips loudly where namespaces cannot be made (not root, no iproute2), and fails instead when
 * REQUIRE_INFRA names netns, so CI never passes without having run it. Each block's network has
 * names and addresses of its own, so files running side by side do not meet.
 */
export function describeWithHostNetwork(
  name: string,
  hosts: { hosts: readonly string[]; frontHosts?: readonly string[] },
  body: (network: () => HostNetwork) => void,
): void {
  const unavailable = hostNetworkUnavailable();
  let network: HostNetwork | undefined;
  const current = () => {
    if (!network) throw new Error('the host network exists only while the tests run');
    return network;
  };

  if (unavailable !== undefined && !infraRequired('netns')) {
    console.warn(`[netns] ${name} skipped: ${unavailable}`);
    describe.skip(`${name} (skipped: ${unavailable})`, () => body(current));
    return;
  }

  describe(name, () => {
    beforeAll(async () => {
      if (unavailable !== undefined) throw new Error(`REQUIRE_INFRA names netns, but ${unavailable}`);
      network = await createHostNetwork(hosts);
    });

    afterAll(async () => {
      await network?.destroy();
    });

    body(current);
  });
}
