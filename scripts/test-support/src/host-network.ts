import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';
import type { ServerPlacement } from './redis';

const run = promisify(execFile);

/**
 * Hosts of their own on one machine: a network namespace per host, each with its loopback and one
 * link (`eth0`, a veth pair) into a bridge that lives in a namespace of its own, as a switch
 * would. The process that creates it (the test runner) joins that bridge too, so it can reach every
 * host. Hosts named in `frontHosts` get a second link (`eth1`) into a second bridge the runner is
 * also on: the way clients and a load balancer reach a gateway, which cutting the host's `eth0`
 * leaves up.
 */
export interface HostNetwork {
  /** Unique to this network: its namespaces are named `qsp-<pid>-<id>-<host>`. */
  readonly id: string;
  /** The runner's address on the hosts' bridge (where its fault proxies listen). */
  readonly runnerAddress: string;
  /** The runner's address on the front bridge: the address front hosts see their clients come from. */
  readonly runnerFrontAddress: string;
  /** Whether `tc qdisc ... netem` works here; without it, delay and loss need a userspace proxy. */
  readonly netem: boolean;
  /** `host`'s namespace and its address on the hosts' bridge, for startRedis, startKafka, start*Process. */
  placement(host: string): ServerPlacement;
  /** `host`'s namespace and its address on the front bridge (a front host only). */
  frontPlacement(host: string): ServerPlacement;
  /**
   * Cuts `host`'s link to the hosts' bridge (its switch port goes down): nothing it sends there
   * arrives and nothing reaches it, with no reset, as with a pulled cable or a dead switch port.
   * Its open connections stay open on both sides until their own timeouts.
   */
  cut(host: string): Promise<void>;
  /** Plugs `host`'s link back in. */
  heal(host: string): Promise<void>;
  /**
   * Applies `tc netem` (e.g. `['delay', '200ms', 'loss', '30%']`) to what every host sends on the
   * hosts' bridge, or removes it (`undefined`). Only where `netem` is true.
   */
  shape(netemArgs: readonly string[] | undefined): Promise<void>;
  /** Kills every process left in its namespaces and deletes them (and so every link). */
  destroy(): Promise<void>;
}

/**
 * Why this machine cannot make host networks, or undefined when it can: it takes root (or
 * CAP_NET_ADMIN and CAP_SYS_ADMIN) and iproute2. Asked by adding and deleting a namespace.
 */
export function hostNetworkUnavailable(): string | undefined {
  const probe = `qsp-probe-${process.pid}-${randomBytes(2).toString('hex')}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    return `cannot create network namespaces (needs root and iproute2, scripts/infra/install-iproute2.sh): ${detail}`;
  }
  execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
  return undefined;
}

const BRIDGE = 'br0';
const FRONT_BRIDGE = 'br1';

/** Creates the hosts (names of at most 11 characters), each running nothing yet. */
export async function createHostNetwork(options: {
  hosts: readonly string[];
  frontHosts?: readonly string[];
}): Promise<HostNetwork> {
  const { hosts, frontHosts = [] } = options;
  if (process.env.TEST_HOST_NETWORKS !== 'allowed') {
    throw new Error(
      "host networks change this machine's interfaces, which fails the browser tests' requests: list the file in vitest.config.ts's hostNetworkFiles",
    );
  }
  for (const host of hosts) {
    if (!/^[a-z][a-z0-9]{0,10}$/.test(host))
      throw new Error(`host name ${host}: up to 11 lowercase letters and digits`);
  }
  sweepOrphans();
  const id = randomBytes(3).toString('hex');
  // The creator's pid in the name lets a later run delete what a killed one left behind.
  const prefix = `qsp-${process.pid}-${id}-`;
  const switchNs = `${prefix}switch`;
  const namespaceOf = (host: string) => `${prefix}${host}`;
  const subnet = freeSubnet();
  const address = (host: string) => `${subnet}.0.${10 + hosts.indexOf(host)}`;
  const frontAddress = (host: string) => `${subnet}.1.${10 + hosts.indexOf(host)}`;
  // The runner's ends live in its own namespace, where names are shared with everyone else's.
  const runnerLink = `qsp${id}b`;
  const runnerFrontLink = `qsp${id}f`;
  const namespaces = [switchNs, ...hosts.map(namespaceOf)];

  const destroySync = () => deleteNetwork(namespaces, [runnerLink, runnerFrontLink]);
  process.once('exit', destroySync);

  const ip = (...args: string[]) => run('ip', args);
  const inSwitch = (...args: string[]) => ip('-n', switchNs, ...args);
  const inHost = (host: string, ...args: string[]) => ip('-n', namespaceOf(host), ...args);

  try {
    for (const ns of namespaces) await ip('netns', 'add', ns);
    for (const bridge of [BRIDGE, FRONT_BRIDGE]) {
      await inSwitch('link', 'add', bridge, 'type', 'bridge');
      await inSwitch('link', 'set', bridge, 'up');
    }
    const plug = async (bridge: string, port: string, peer: string, peerNs: string) => {
      await inSwitch('link', 'add', port, 'type', 'veth', 'peer', 'name', peer, 'netns', peerNs);
      await inSwitch('link', 'set', port, 'master', bridge, 'up');
    };
    for (const host of hosts) {
      const ns = namespaceOf(host);
      await inHost(host, 'link', 'set', 'lo', 'up');
      await plug(BRIDGE, `b-${host}`, 'eth0', ns);
      await inHost(host, 'addr', 'add', `${address(host)}/24`, 'dev', 'eth0');
      await inHost(host, 'link', 'set', 'eth0', 'up');
      if (frontHosts.includes(host)) {
        await plug(FRONT_BRIDGE, `f-${host}`, 'eth1', ns);
        await inHost(host, 'addr', 'add', `${frontAddress(host)}/24`, 'dev', 'eth1');
        await inHost(host, 'link', 'set', 'eth1', 'up');
      }
    }
    // `netns <pid>`: the namespace of that process, this one's.
    const runnerNs = String(process.pid);
    for (const [bridge, port, link, addr] of [
      [BRIDGE, 'b-runner', runnerLink, `${subnet}.0.1/24`],
      [FRONT_BRIDGE, 'f-runner', runnerFrontLink, `${subnet}.1.1/24`],
    ] as const) {
      await plug(bridge, port, link, runnerNs);
      await ip('addr', 'add', addr, 'dev', link);
      await ip('link', 'set', link, 'up');
    }
  } catch (error) {
    destroySync();
    process.off('exit', destroySync);
    throw error;
  }

  const netem = await netemWorks(namespaceOf(hosts[0]!));
  const checkHost = (host: string) => {
    if (!hosts.includes(host)) throw new Error(`no host ${host} in this network`);
    return host;
  };
  let destroying: Promise<void> | undefined;
  return {
    id,
    runnerAddress: `${subnet}.0.1`,
    runnerFrontAddress: `${subnet}.1.1`,
    netem,
    placement: (host) => ({ netns: namespaceOf(checkHost(host)), host: address(host) }),
    frontPlacement(host) {
      if (!frontHosts.includes(host)) throw new Error(`${host} is not a front host`);
      return { netns: namespaceOf(host), host: frontAddress(host) };
    },
    async cut(host) {
      await inSwitch('link', 'set', `b-${checkHost(host)}`, 'down');
    },
    async heal(host) {
      await inSwitch('link', 'set', `b-${checkHost(host)}`, 'up');
    },
    async shape(netemArgs) {
      if (!netem) throw new Error('tc netem does not work on this machine');
      for (const host of hosts) {
        const tc = (...args: string[]) => ip('netns', 'exec', namespaceOf(host), 'tc', 'qdisc', ...args);
        if (netemArgs) await tc('replace', 'dev', 'eth0', 'root', 'netem', ...netemArgs);
        // Already without one: nothing to remove.
        else await tc('del', 'dev', 'eth0', 'root').catch(() => {});
      }
    },
    destroy() {
      destroying ??= (async () => {
        process.off('exit', destroySync);
        destroySync();
      })();
      return destroying;
    },
  };
}

/** Kills what runs in `namespaces`, deletes them, then `runnerLinks` (this namespace's ends). */
function deleteNetwork(namespaces: readonly string[], runnerLinks: readonly string[]): void {
  for (const ns of namespaces) {
    try {
      const pids = execFileSync('ip', ['netns', 'pids', ns], { stdio: 'pipe' }).toString().split(/\s+/);
      for (const pid of pids.filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
      execFileSync('ip', ['netns', 'del', ns], { stdio: 'pipe' });
    } catch {
      // Never made, or gone already.
    }
  }
  // A namespace is deleted in the background: its veths' ends here go with it only later.
  for (const link of runnerLinks) {
    try {
      execFileSync('ip', ['link', 'del', link], { stdio: 'pipe' });
    } catch {
      // Gone already.
    }
  }
}

/**
 * Deletes the networks of runs that were killed before they could (a SIGKILLed or timed-out test
 * worker runs no exit hook): those whose creating process is gone.
 */
function sweepOrphans(): void {
  const orphans = new Map<string, string[]>();
  for (const line of execFileSync('ip', ['netns', 'list']).toString().split('\n')) {
    const match = /^(qsp-(\d+)-([0-9a-f]+)-\w+)/.exec(line);
    if (!match || isAlive(Number(match[2]))) continue;
    const id = match[3]!;
    orphans.set(id, [...(orphans.get(id) ?? []), match[1]!]);
  }
  for (const [id, namespaces] of orphans) deleteNetwork(namespaces, [`qsp${id}b`, `qsp${id}f`]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the kernel has netem: tried on `ns`'s loopback, then removed. */
async function netemWorks(ns: string): Promise<boolean> {
  try {
    await run('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms']);
    await run('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'del', 'dev', 'lo', 'root']);
    return true;
  } catch {
    return false;
  }
}

/**
 * `10.<n>` for a network's two /24s (`10.<n>.0.0` for the hosts, `10.<n>.1.0` for the front), one
 * no interface of this machine uses yet: test files running side by side each get their own.
 */
function freeSubnet(): string {
  const used = new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((info) => info?.address.split('.').slice(0, 2).join('.')),
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const candidate = `10.${64 + Math.floor(Math.random() * 180)}`;
    if (!used.has(candidate)) return candidate;
  }
  throw new Error('no free 10.x subnet for a host network');
}
