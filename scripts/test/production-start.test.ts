import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildServerBundles, serverBundles } from '../server-bundles';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every command that starts a process in production, by where it is written. */
function productionStarts(): { where: string; command: string[] }[] {
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  const fromPackage = ['start', 'start:ingestor', 'start:projector'].map((script) => ({
    where: `package.json ${script}`,
    command: scripts[script]!.split(' '),
  }));
  const imageCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]!) as string[];
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { build?: unknown; command?: string[] }>;
  };
  const fromCompose = Object.entries(compose.services)
    .filter(([, service]) => service.build !== undefined)
    .map(([name, service]) => ({ where: `docker-compose.yml ${name}`, command: service.command ?? imageCommand }));
  return [...fromPackage, { where: 'Dockerfile CMD', command: imageCommand }, ...fromCompose];
}

describe('production starts', () => {
  const starts = productionStarts();
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'qrshirt-production-start-'));
    await buildServerBundles();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('run each process from its bundle, with source maps on, in every place that starts one', () => {
    const bundles = serverBundles.map(({ bundle }) => bundle);
    for (const { where, command } of starts) {
      expect(command[0], where).toBe('node');
      expect(command, where).toContain('--enable-source-maps');
      expect(bundles, where).toContain(command.at(-1));
    }
    for (const bundle of bundles) {
      expect(
        starts.filter(({ where }) => where.startsWith('package.json')).map(({ command }) => command.at(-1)),
      ).toContain(bundle);
    }
  });

  it('name the TypeScript file and line of an error thrown in a bundle', () => {
    // A file where the data folder belongs: each process throws from our code as it starts.
    const notAFolder = path.join(folder, 'data');
    writeFileSync(notAFolder, '');
    const distinct = new Map(starts.map((start) => [start.command.join(' '), start]));
    for (const { where, command } of distinct.values()) {
      const run = spawnSync(process.execPath, command.slice(1), {
        cwd: root,
        encoding: 'utf8',
        // Only a process that hangs instead of failing at its start reaches it.
        timeout: scaled(60_000),
        env: {
          PATH: process.env.PATH,
          DATA_DIR: notAFolder,
          PORT: '0',
          OPS_PORT: '0',
          // Checked before the data folder; nothing connects to them.
          KAFKA_BROKERS: '127.0.0.1:9',
          REDIS_URL: 'redis://127.0.0.1:9',
        },
      });
      expect(run.status, `${where}\n${run.stderr}`).not.toBe(0);
      expect(run.stderr, where).toMatch(/EEXIST/);
      expect(run.stderr, where).toMatch(/\/services\/[\w-]+\/src\/main\.ts:\d+:\d+/);
      expect(run.stderr, where).not.toMatch(/\.mjs:\d+:\d+/);
    }
  });
});
