import { type Admin, Kafka, logLevel } from 'kafkajs';

export interface KafkaAdminSession {
  /** Runs `work` on a connected admin client; a failure drops the connection so the next call reconnects. */
  use<T>(work: (admin: Admin) => Promise<T>): Promise<T>;
  /** Resolves when a broker answers a metadata request: GET /readyz's Kafka check. */
  reachable(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One admin client for a process's probes (readiness, consumer lag), with short timeouts and
 * two quick retries (a broker may first answer that a group's coordinator is not known yet): a
 * probe should answer "down" within a couple of seconds, not after kafkajs' default backoff.
 */
export function createKafkaAdminSession(brokers: string[], clientId: string): KafkaAdminSession {
  const kafka = new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 2_000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 300 },
  });
  let admin: Admin | undefined;
  let connecting: Promise<Admin> | undefined;

  const connected = (): Promise<Admin> => {
    if (admin) return Promise.resolve(admin);
    connecting ??= (async () => {
      const fresh = kafka.admin();
      try {
        await fresh.connect();
      } catch (error) {
        await fresh.disconnect().catch(() => {});
        throw error;
      }
      admin = fresh;
      return fresh;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const use = async <T>(work: (admin: Admin) => Promise<T>): Promise<T> => {
    const client = await connected();
    try {
      return await work(client);
    } catch (error) {
      if (admin === client) admin = undefined;
      await client.disconnect().catch(() => {});
      throw error;
    }
  };

  return {
    use,
    async reachable() {
      const { brokers: listed } = await use((client) => client.describeCluster());
      if (listed.length === 0) throw new Error('the cluster lists no brokers');
    },
    async close() {
      const client = admin ?? (await connecting?.catch(() => undefined));
      admin = undefined;
      await client?.disconnect();
    },
  };
}
