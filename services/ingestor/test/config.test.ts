import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processCommand, START_MS } from '@qrshirt/test-support';
import { loadIngestorConfig } from '../src/config';

/** The ingestor's entry point with exactly `env` (plus PATH), as an operator would start it. */
function start(env: Record<string, string>) {
  const [command, ...args] = processCommand('ingestor');
  return spawnSync(command, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: START_MS,
  });
}

describe('ingestor configuration', () => {
  it('needs only KAFKA_BROKERS; the rest has defaults', () => {
    expect(loadIngestorConfig({ KAFKA_BROKERS: 'kafka:9092,kafka2:9092' })).toMatchObject({
      KAFKA_BROKERS: ['kafka:9092', 'kafka2:9092'],
      INGESTOR_GROUP_ID: 'ingestor',
      OPS_PORT: 9101,
      OPS_HOST: '127.0.0.1',
    });
  });

  it('stops with exit code 2 and one line per wrong or missing variable, without a stack trace', () => {
    const run = start({
      OPS_PORT: 'ninety',
      KAFKA_SESSION_TIMEOUT_MS: '5',
      KAFKA_REPLICATION_FACTOR: '0',
      KAFKA_MIN_INSYNC_REPLICAS: 'two',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n').sort()).toEqual([
      'KAFKA_BROKERS: expected host:port[,host:port]',
      'KAFKA_MIN_INSYNC_REPLICAS: expected a number of replicas',
      'KAFKA_REPLICATION_FACTOR: expected a number of replicas',
      'KAFKA_SESSION_TIMEOUT_MS: expected milliseconds',
      'OPS_PORT: expected a port number',
    ]);
    expect(run.stdout).toBe('');
  });

  it('names a malformed broker list the same way', () => {
    const run = start({ KAFKA_BROKERS: 'kafka' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('KAFKA_BROKERS: expected host:port[,host:port]');
  });
});
