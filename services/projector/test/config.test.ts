import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processCommand, START_MS } from '@qrshirt/test-support';
import { loadProjectorConfig } from '../src/config';

describe('projector configuration', () => {
  it('needs only REDIS_URL; the rest has defaults', () => {
    const config = loadProjectorConfig({ REDIS_URL: 'redis://redis:6379' });
    expect(config).toMatchObject({
      REDIS_URL: 'redis://redis:6379',
      OPS_PORT: 9102,
      OPS_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    expect(config.EVENTSTORE_URL).toBeUndefined();
  });

  it('stops with exit code 2 and one line per wrong or missing variable, without a stack trace', () => {
    const [command, ...args] = processCommand('projector');
    const run = spawnSync(command, args, {
      env: { PATH: process.env.PATH ?? '', EVENTSTORE_URL: 'eventstore', LOG_LEVEL: 'loud' },
      encoding: 'utf8',
      timeout: START_MS,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n').sort()).toEqual([
      'EVENTSTORE_URL: expected esdb://host:port?tls=false',
      'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
      'REDIS_URL: expected redis://host:port',
    ]);
    expect(run.stdout).toBe('');
  });
});
