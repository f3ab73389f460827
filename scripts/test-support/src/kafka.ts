import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { findExecutable } from './find-executable';
import { freePorts } from './free-ports';
import { inNetns } from './launch';
import type { ServerPlacement } from './redis';
import { START_MS, scaled, waitFor } from './deadlines';

/** The one broker version we run: scripts/infra/kafka-jars/pom.xml resolves it and docker-compose.yml uses its image. */
export const KAFKA_VERSION = '3.9.1';

interface KafkaPorts {
  broker: number;
  controller: number;
}

/** Where the broker listens and what it tells clients to connect to. */
interface KafkaAddress {
  ports: KafkaPorts;
  /** The address of its client listener (its controller's is always its loopback). */
  host: string;
  /** `host:port` it advertises to clients: its own listener, or a proxy in front of it. */
  advertised: string;
  netns?: string;
}

/** A broker on a host of a HostNetwork. */
export interface KafkaPlacement extends ServerPlacement {
  /** `host:port` clients are told to connect to, when that is not the broker's own listener (a proxy in front). */
  advertised?: string;
}

const PLACED_PORTS: KafkaPorts = { broker: 9092, controller: 9093 };

export interface LocalKafka {
  /** `127.0.0.1:<port>`, as kafkajs' `brokers` entry or KAFKA_BROKERS takes it. */
  readonly brokers: string;
  /** Holds server.properties, the broker's data (`data/`) and its output (`kafka.log`). */
  readonly dir: string;
  /** Stops the broker but keeps its ports and data, so restart() brings the same broker back. */
  halt(): Promise<void>;
  /** Kills the broker (SIGKILL) as a crash would, mid-request; restart() recovers its data. */
  crash(): Promise<void>;
  /** Starts the halted broker again on its ports with its data; resolves once it serves clients. */
  restart(): Promise<void>;
  /**
   * Pauses the broker (SIGSTOP): its sockets stay open but nothing answers, as with a hung host.
   * Resolves once every thread of it is stopped.
   */
  freeze(): Promise<void>;
  /** Resumes a frozen broker (SIGCONT). */
  thaw(): void;
  /** Stops the broker for good and deletes its data. */
  stop(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const INSTALL_SCRIPT = join(REPO_ROOT, 'scripts/infra/install-kafka.sh');
const CLASSPATH_FILE = join(REPO_ROOT, '.infra/kafka/classpath.txt');

/*
 * This broker lives for a test run or a benchmark, minutes at most, on machines with two cores.
 * The optimising (C2) compiler spends a core for most of the first minute compiling the broker's
 * hot paths, which the gateway, the ingestor and the load generator need: the quick (C1) compiler
 * alone starts the broker in 2.7 s instead of 3.2 s and let the benchmark's scans through 15-25%
 * faster while the broker was young.
 */
const JVM_OPTIONS = ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];
const STOP_TIMEOUT_MS = scaled(15_000);
const POLL_MS = 100;

/** The java and mvn binaries the local broker needs; undefined when either is missing. */
export function findJavaAndMaven(): { java: string; mvn: string } | undefined {
  const java = findExecutable('java');
  const mvn = findExecutable('mvn');
  return java && mvn ? { java, mvn } : undefined;
}

/**
 * Starts a single-node KRaft broker (combined broker and controller) on free loopback ports, or
 * on 9092 (and its controller on 9093) of `placement`'s host, in a fresh temporary directory, and
 * resolves once it serves clients (see waitUntilReady). The broker's jars are resolved first if
 * they are not yet (scripts/infra/install-kafka.sh). It is killed when this process exits, in
 * case stop() is never reached.
 */
export async function startKafka(placement?: KafkaPlacement): Promise<LocalKafka> {
  const tools = findJavaAndMaven();
  if (!tools) throw new Error('java or mvn not found: the local Kafka broker needs Java 17+ and Maven');
  const classpath = await resolveClasspath();
  if (placement) {
    const { netns, host, advertised = `${host}:${PLACED_PORTS.broker}` } = placement;
    return startOn(tools.java, classpath, { ports: PLACED_PORTS, host, advertised, netns });
  }
  // Another process can take a free port before the broker binds it; pick again then.
  for (let attempt = 1; ; attempt++) {
    const [broker, controller] = await freePorts(2);
    if (broker === undefined || controller === undefined) throw new Error('could not pick free ports');
    try {
      const ports = { broker, controller };
      return await startOn(tools.java, classpath, { ports, host: '127.0.0.1', advertised: `127.0.0.1:${broker}` });
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOn(java: string, classpath: string, address: KafkaAddress): Promise<LocalKafka> {
  const { ports } = address;
  const dir = await mkdtemp(join(tmpdir(), 'qr-kafka-'));
  const propertiesPath = join(dir, 'server.properties');
  const logPath = join(dir, 'kafka.log');
  await writeFile(propertiesPath, serverProperties(address, join(dir, 'data')));

  // The broker's identity: readiness asks for it, so that another process's broker that took the
  // port first is never taken for this one.
  const cluster = clusterId();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killOnExit = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const launch = async () => {
    if (isRunning()) throw new Error('Kafka is still running: halt() it before restart()');
    // Appended, so a failure after restart() shows both runs' last lines.
    const log = openSync(logPath, 'a');
    const [command, ...args] = inNetns(address.netns, [
      java,
      ...[...JVM_OPTIONS, '-cp', classpath, 'kafka.Kafka', propertiesPath],
    ]);
    const started = spawn(command, args, { stdio: ['ignore', log, log] });
    closeSync(log);
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    // The exit hook owns the cleanup, so a forgotten stop() does not keep the process alive.
    started.unref();
    try {
      await waitUntilReady(address, started, cluster);
    } catch (error) {
      await halt();
      const output = logTail(logPath);
      const message = `Kafka did not start on port ${ports.broker}: ${(error as Error).message}\n${output}`;
      const taken = error instanceof PortTakenError || output.includes('Address already in use');
      throw taken ? new PortTakenError(message) : new Error(message);
    }
  };

  const halt = async () => {
    if (child && isRunning()) await terminate(child, exited);
  };

  const crash = async () => {
    if (!child || !isRunning()) return;
    child.kill('SIGKILL');
    await exited;
  };

  const freeze = async () => {
    if (!child || !isRunning()) return;
    child.kill('SIGSTOP');
    // The signal is only queued: a thread in uninterruptible sleep (the broker's disk writes, on
    // a loaded machine) stops once it wakes, and until then may still answer.
    const pid = child.pid!;
    await waitFor(
      `Kafka (pid ${pid}) to be stopped`,
      () => threadStates(pid),
      (states) => states.every(isStopped),
      {
        intervalMs: 10,
      },
    );
  };
  const thaw = () => {
    if (child && isRunning()) child.kill('SIGCONT');
  };

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      await halt();
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    await format(java, classpath, propertiesPath, logPath, cluster);
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return { brokers: address.advertised, dir, halt, crash, restart: launch, freeze, thaw, stop };
}

/** The state letter of each of a process's threads (`/proc/<pid>/task/<tid>/stat`); none off Linux. */
function threadStates(pid: number): string[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    try {
      // The state follows the command name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return [stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)];
    } catch {
      return []; // The thread ended between the listing and the read.
    }
  });
}

/** Stopped by a signal (T), or by a tracer (t). */
const isStopped = (state: string) => state === 'T' || state === 't';

function serverProperties({ ports, host, advertised }: KafkaAddress, dataDir: string): string {
  const settings: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    // A static quorum of this one node: no bootstrap-controller step, and it survives a restart.
    'controller.quorum.voters': `1@127.0.0.1:${ports.controller}`,
    listeners: `PLAINTEXT://${host}:${ports.broker},CONTROLLER://127.0.0.1:${ports.controller}`,
    'advertised.listeners': `PLAINTEXT://${advertised}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': dataDir,
    // One broker: internal topics cannot have more replicas than that.
    'offsets.topic.replication.factor': 1,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    // Consumer groups of tests and dev runs should start at once, not after the default 3 s.
    'group.initial.rebalance.delay.ms': 0,
    // kafkajs mishandles topics auto-created under KRaft: topics are created with the admin client.
    'auto.create.topics.enable': false,
    'num.partitions': 6,
  };
  return `${Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;
}

/** Runs install-kafka.sh (a no-op once resolved) and reads the classpath it wrote. */
async function resolveClasspath(): Promise<string> {
  await run('bash', [INSTALL_SCRIPT], 'install-kafka.sh');
  return readFileSync(CLASSPATH_FILE, 'utf8').trim();
}

async function format(
  java: string,
  classpath: string,
  propertiesPath: string,
  logPath: string,
  cluster: string,
): Promise<void> {
  const args = ['format', '-t', cluster, '-c', propertiesPath, '--ignore-formatted'];
  const output = await run(java, [...JVM_OPTIONS, '-cp', classpath, 'kafka.tools.StorageTool', ...args], 'formatting');
  await writeFile(logPath, output);
}

/** Kafka's cluster id format: 16 random bytes in URL-safe base64 without padding (22 characters). */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    // The command-line parser would read a leading '-' as an option; Kafka's own generator avoids it too.
    if (!id.startsWith('-')) return id;
  }
}

function run(command: string, args: string[], what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      // Not error.message: it repeats the command line, whose classpath runs to kilobytes.
      if (error)
        reject(new Error(`${what} failed (exit ${error.code ?? error.signal}):\n${stdout}${stderr}`.trimEnd()));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

/**
 * Polls the port, then asks an admin client until the broker serves everything a client may ask
 * at once. A listening port is not enough: the broker must have joined its quorum and registered
 * (describeCluster lists it); after a restart it must lead its partitions again (listing offsets
 * answers NOT_LEADER until then); and the group coordinator must be loaded (fetching a group's
 * offsets answers COORDINATOR_LOAD_IN_PROGRESS until then; on a fresh broker this first request
 * creates the offsets topic, whose single partition serves every group). kafkajs' admin calls do
 * not retry those answers, so a test's first call would otherwise fail. The broker that answers
 * must be of `cluster`: with several test runs on one machine another run's broker may have taken
 * the port between its pick and the bind, and this one then exits while that one answers.
 */
async function waitUntilReady(
  { ports, host, advertised }: KafkaAddress,
  child: ChildProcess,
  cluster: string,
): Promise<void> {
  const deadline = Date.now() + START_MS;
  const admin = new Kafka({
    clientId: 'qr-kafka-readiness',
    brokers: [advertised],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
  }).admin();
  let lastProblem = 'the port never accepted a connection';
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
      }
      if (await acceptsConnection(host, ports.broker)) {
        try {
          await admin.connect();
          const { brokers, clusterId: answered } = await admin.describeCluster();
          if (answered !== cluster)
            throw new PortTakenError(`another broker (cluster ${answered}) answers on its port`);
          if (brokers.length === 0) throw new Error('describeCluster listed no brokers');
          for (const topic of await admin.listTopics()) await admin.fetchTopicOffsets(topic);
          await admin.fetchOffsets({ groupId: 'qr-kafka-readiness' });
          return;
        } catch (error) {
          if (error instanceof PortTakenError) throw error;
          lastProblem = (error as Error).message;
          await admin.disconnect();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`not ready within ${START_MS / 1000} s (last problem: ${lastProblem})`);
  } finally {
    await admin.disconnect();
  }
}

function acceptsConnection(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => finish(true));
  });
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  child.kill('SIGTERM');
  // A frozen broker would only see the SIGTERM once resumed.
  child.kill('SIGCONT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-4_000);
  } catch {
    return '';
  }
}

/**
 * Whether consumer group `groupId` has committed an offset at the end of every partition of
 * `topic`: what it consumes is done with everything produced to the topic so far. Nothing
 * committed counts from the earliest message still kept, as the group would start there. A broker
 * that does not answer yet (just restarted, cut off) makes it false: not known is not done.
 */
export async function groupCaughtUp(brokers: string, groupId: string, topic: string): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'qr-test-caught-up',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const ends = await admin.fetchTopicOffsets(topic);
    return ends.every(({ partition, high, low }) => {
      const offset = Number(committed?.partitions.find((entry) => entry.partition === partition)?.offset ?? -1);
      return (offset >= 0 ? offset : Number(low)) >= Number(high);
    });
  } catch {
    return false;
  } finally {
    await admin.disconnect();
  }
}
