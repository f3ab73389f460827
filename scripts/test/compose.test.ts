import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gatewayConfigSchema } from '@qrshirt/gateway';
import { ingestorConfigSchema } from '@qrshirt/ingestor';
import { projectorConfigSchema } from '@qrshirt/projector';
import { infraRequired, KAFKA_VERSION } from '@qrshirt/test-support';
import { serverBundles } from '../server-bundles';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(`${root}/${file}`, 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] | string };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

// The file uses YAML merge keys (`<<: *app`), as Compose does.
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as ComposeFile;

/** Compose's own loader, as scripts/infra/install-compose.sh builds it. */
const COMPOSE_CONFIG = `${root}/.infra/compose/bin/compose-config`;
const COMPOSE_CONFIG_MISSING = 'compose-config not built (run scripts/infra/install-compose.sh)';
const composeConfigBuilt = existsSync(COMPOSE_CONFIG);
if (!composeConfigBuilt && !infraRequired('compose')) {
  console.warn(`[compose] the loader's checks skipped: ${COMPOSE_CONFIG_MISSING}`);
}

/** The secrets an operator must set (`${VAR:?}` in the file). */
const SECRETS = { AUTH_JWT_SECRET: 'x'.repeat(64), LOOKUP_KEY_SECRET: 'y'.repeat(64) };

/** What Compose's loader makes of a compose file, as `docker compose config` would: the project, or its refusal. */
function loaded(file = 'docker-compose.yml', secrets: Record<string, string> = SECRETS) {
  if (!composeConfigBuilt) throw new Error(`REQUIRE_INFRA names compose, but ${COMPOSE_CONFIG_MISSING}`);
  // Nothing else from this machine's environment: a variable set here could hide a missing one.
  const run = spawnSync(COMPOSE_CONFIG, [file], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...secrets },
  });
  return { status: run.status, stderr: run.stderr, project: run.status === 0 ? JSON.parse(run.stdout) : undefined };
}

const appConfigSchemas = {
  gateway: gatewayConfigSchema,
  ingestor: ingestorConfigSchema,
  projector: projectorConfigSchema,
} as const;

const command = (service: Service) => (Array.isArray(service.command) ? service.command : [service.command ?? '']);

describe('docker-compose.yml', () => {
  describe.skipIf(!composeConfigBuilt && !infraRequired('compose'))(
    "under Compose's own loader (compose-go's LoadProject, which `docker compose config` runs)",
    () => {
      it('loads, and publishes on loopback only, from the network the gateways trust', () => {
        const { status, stderr, project } = loaded();
        expect(stderr).toBe('');
        expect(status).toBe(0);
        const published = (name: string) =>
          project.services[name].ports.map(({ host_ip, published, target }: Record<string, unknown>) => ({
            host_ip,
            published,
            target,
          }));
        expect(published('proxy')).toEqual([{ host_ip: '127.0.0.1', published: '8080', target: 8080 }]);
        expect(published('mailpit')).toEqual([{ host_ip: '127.0.0.1', published: '8025', target: 8025 }]);
        const [pool, ...others] = project.networks.default.ipam.config;
        expect(others).toEqual([]);
        expect(project.services.gateway.environment.TRUST_PROXY).toBe(pool.subnet);
        expect(project.services.gateway.deploy.replicas).toBe(2);
        expect(project.services.gateway.environment.AUTH_JWT_SECRET).toBe(SECRETS.AUTH_JWT_SECRET);
      });

      it('refuses to load without the secrets an operator must set, naming them', () => {
        const { status, stderr } = loaded('docker-compose.yml', {});
        expect(status).toBe(1);
        expect(stderr).toContain('required variable AUTH_JWT_SECRET is missing a value');
        expect(stderr).toContain('required variable LOOKUP_KEY_SECRET is missing a value');
      });

      it('refuses a misspelt key, a malformed duration and an unknown dependency (the check is not vacuous)', () => {
        const folder = mkdtempSync(join(tmpdir(), 'compose-'));
        try {
          const broken = (name: string, from: string, to: string) => {
            expect(composeText).toContain(from);
            writeFileSync(join(folder, name), composeText.replace(from, to));
            return loaded(join(folder, name));
          };
          const misspelt = broken('misspelt.yml', '    healthcheck:', '    helthcheck:');
          expect(misspelt.status).toBe(1);
          expect(misspelt.stderr).toContain('helthcheck');
          const duration = broken('duration.yml', 'interval: 10s', 'interval: 10 seconds');
          expect(duration.status).toBe(1);
          expect(duration.stderr).toContain('"10 seconds"');
          const dependency = broken(
            'dependency.yml',
            '      redis:\n        condition:',
            '      rediz:\n        condition:',
          );
          expect(dependency.status).toBe(1);
          expect(dependency.stderr).toContain('depends on undefined service "rediz"');
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });
    },
  );

  it('runs every piece of the distributed topology, each with a healthcheck', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['eventstore', 'gateway', 'ingestor', 'kafka', 'mailpit', 'projector', 'proxy', 'redis'].sort(),
    );
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test, `${name} has no healthcheck`).toBeDefined();
    }
  });

  it('starts each service only once what it depends on is healthy', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(compose.services[dependency], `${name} depends on unknown ${dependency}`).toBeDefined();
        expect(condition, `${name} -> ${dependency}`).toBe('service_healthy');
      }
    }
    expect(Object.keys(compose.services.gateway!.depends_on ?? {}).sort()).toEqual([
      'eventstore',
      'kafka',
      'mailpit',
      'redis',
    ]);
    expect(Object.keys(compose.services.ingestor!.depends_on ?? {}).sort()).toEqual(['eventstore', 'kafka']);
    expect(Object.keys(compose.services.projector!.depends_on ?? {}).sort()).toEqual(['eventstore', 'redis']);
  });

  it('runs the Kafka version the tests pin, and Redis with its append-only file', () => {
    expect(compose.services.kafka!.image).toBe(`apache/kafka:${KAFKA_VERSION}`);
    expect(command(compose.services.redis!).join(' ')).toContain('--appendonly yes');
  });

  it('keeps data in named volumes only, each declared', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) {
          expect(volume, `${name} mounts a host folder other than read-only config`).toMatch(/:ro$/);
          expect(existsSync(`${root}/${source}`), `${source} is missing`).toBe(true);
        } else {
          expect(compose.volumes, `${name} uses undeclared volume ${source}`).toHaveProperty(source);
        }
      }
    }
  });

  it('puts two gateway replicas behind the one published port', () => {
    expect(compose.services.gateway!.deploy?.replicas).toBe(2);
    const published = Object.entries(compose.services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name).sort()).toEqual(['mailpit', 'proxy']);
    // On this machine's loopback only, and Mailpit its web UI only, not SMTP.
    expect(compose.services.proxy!.ports).toEqual(['127.0.0.1:8080:8080']);
    expect(compose.services.mailpit!.ports).toEqual(['127.0.0.1:8025:8025']);
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toContain(`server gateway:${compose.services.gateway!.environment!.PORT}`);
  });

  it("has the proxy pass on the address it saw, never the client's own X-Forwarded-For", () => {
    // The gateways believe it from the compose network only (the loader's check above).
    const forwarded = [...read('deploy/nginx.conf').matchAll(/^\s*proxy_set_header X-Forwarded-For (\S+);/gm)];
    expect(forwarded.map((match) => match[1])).toEqual(['$remote_addr']);
  });

  it('never runs the demo processor in production mode, which a gateway refuses to start with', () => {
    const gateway = compose.services.gateway!.environment!;
    expect(gateway.DEMO_PROCESSOR).toBe('true');
    expect(gateway.NODE_ENV).not.toBe('production');
  });

  it('sends the gateways’ mail to Mailpit and serves their operations endpoints on a port the proxy hides', () => {
    const gateway = compose.services.gateway!.environment!;
    expect(gateway.SMTP_URL).toBe('smtp://mailpit:1025');
    expect(gateway.OPS_PORT).toBeDefined();
    expect(read('deploy/nginx.conf')).not.toContain(`:${gateway.OPS_PORT}`);
  });

  it('has the proxy refuse /metrics and /readyz in every spelling nginx normalises them to', () => {
    const nginx = read('deploy/nginx.conf');
    const refused = [...nginx.matchAll(/location ~\* (\S+) \{\s*return 404;/g)].map(
      (match) => new RegExp(match[1]!, 'i'),
    );
    expect(refused.length).toBeGreaterThan(0);
    const isRefused = (path: string) => refused.some((pattern) => pattern.test(path));
    // What nginx matches against after decoding %XX, merging slashes and resolving dots.
    for (const path of ['/metrics', '/metrics/', '/METRICS', '/Metrics', '/metrics/anything', '/readyz', '/READYZ/']) {
      expect(isRefused(path), path).toBe(true);
    }
    for (const path of ['/healthz', '/api/metrics', '/metricsx', '/shop']) expect(isRefused(path), path).toBe(false);
  });

  it('has the proxy leave compression to the gateways: it forwards Accept-Encoding and passes their encodings back', () => {
    // Directives only: a word in a comment is not one.
    const directives = read('deploy/nginx.conf')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .join('\n');
    // nginx's gzip would only reach what the gateways leave plain on purpose: small answers and
    // the live event streams, which a compressor would hold back.
    expect(directives).toMatch(/^gzip off;$/m);
    expect(directives).not.toMatch(/\bgunzip on\b|\bgzip_static\b|\bbrotli/);
    expect(directives).not.toMatch(/proxy_set_header\s+Accept-Encoding|proxy_hide_header|proxy_ignore_headers/i);
    // No cache here: a cached answer would have to honour Vary, which nothing would test.
    expect(directives).not.toMatch(/\bproxy_cache\b/);
  });

  it('gives each app service only variables its configuration knows, valid ones, and probes its /readyz port', () => {
    for (const [name, schema] of Object.entries(appConfigSchemas)) {
      const service = compose.services[name]!;
      const environment = service.environment ?? {};
      const known = Object.keys(schema.shape);
      for (const key of Object.keys(environment)) expect(known, `${name}: unknown variable ${key}`).toContain(key);
      const withoutInterpolation = Object.fromEntries(
        Object.entries(environment).map(([key, value]) => [key, value.startsWith('${') ? 'x'.repeat(64) : value]),
      );
      const parsed = schema.safeParse(withoutInterpolation);
      expect(parsed.error?.issues ?? [], name).toEqual([]);
      expect(JSON.stringify(service.healthcheck?.test), name).toContain(`127.0.0.1:${environment.OPS_PORT}/readyz`);
      // Loopback by default; a container's own loopback is out of a scraper's reach.
      expect(environment.OPS_HOST, name).toBe('0.0.0.0');
    }
  });

  it('starts each app service from the bundle of its own entry point, with the image built from the Dockerfile', () => {
    const dockerfile = read('Dockerfile');
    const defaultCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    for (const name of Object.keys(appConfigSchemas)) {
      const service = compose.services[name]!;
      expect(service.build, name).toBe('.');
      const entry = (service.command ? command(service) : defaultCommand).at(-1)!;
      const built = serverBundles.find(({ bundle }) => bundle === entry);
      expect(built?.entry, `${name}: ${entry}`).toBe(`services/${name}/src/main.ts`);
      expect(existsSync(`${root}/${built!.entry}`), built!.entry).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const final = stages.at(-1)!;

  it('is multi-stage, and the final stage installs production dependencies only and runs unprivileged', () => {
    expect(stages.length).toBeGreaterThan(1);
    expect(final).toMatch(/npm ci --omit=dev/);
    // Only the server workspaces': what their bundles leave external, not the web client's.
    const install = /npm ci --omit=dev((?:[^\n]*\\\n)*[^\n]*)/.exec(final)![1]!;
    const workspaces = [...install.matchAll(/--workspace (\S+)/g)].map((match) => match[1]);
    expect(workspaces.sort()).toEqual(serverBundles.map(({ bundle }) => bundle.split('/dist/')[0]).sort());
    const user = /^USER (\S+)$/m.exec(final)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
  });

  it('runs in production mode, which requires a secret of its own', () => {
    expect(final).toMatch(/^ENV NODE_ENV=production$/m);
  });

  it('runs the bundles its build stage makes, copied into the final stage', () => {
    expect(stages[0]).toMatch(/^RUN .*npm run build:server/m);
    for (const { bundle } of serverBundles) {
      const folder = bundle.slice(0, bundle.lastIndexOf('/'));
      expect(final).toContain(`COPY --from=build /app/${folder} ${folder}`);
    }
    expect(final).toMatch(/^CMD \["node", "--enable-source-maps", "services\/gateway\/dist\/main\.mjs"\]$/m);
  });

  it('copies only what exists', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1]!.split(' '));
    for (const source of sources) expect(existsSync(`${root}/${source}`), source).toBe(true);
  });
});
