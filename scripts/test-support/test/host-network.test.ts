import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHostNetwork, type HostNetwork, type LaunchedProcess, launchProcess } from '@qrshirt/test-support';
import { describeWithHostNetwork } from '@qrshirt/test-support/vitest';

/** A TCP server on `host:7000` inside its namespace that answers every connection with `name`. */
function serve(network: HostNetwork, name: string): LaunchedProcess {
  const { netns, host } = network.placement(name);
  const script = `require('net').createServer((s) => s.end(${JSON.stringify(name)})).listen(7000, ${JSON.stringify(host)}, () => console.log('listening'))`;
  return launchProcess({ name, netns, command: [process.execPath, '-e', script] });
}

/** What `host:7000` answers within a second, or why nothing came. */
function ask(host: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port: 7000 });
    let text = '';
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('end', () => resolve(text));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const namespaces = () => execFileSync('ip', ['netns', 'list']).toString();

describeWithHostNetwork('a host network', { hosts: ['alpha', 'beta'] }, (network) => {
  const servers: LaunchedProcess[] = [];
  beforeAll(async () => {
    servers.push(serve(network(), 'alpha'), serve(network(), 'beta'));
    for (const server of servers) {
      while (!server.output.includes('listening')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
  });

  it('reaches each host from this process; a cut host answers nothing until healed, the others still do', async () => {
    const { host: alpha } = network().placement('alpha');
    const { host: beta } = network().placement('beta');
    expect([await ask(alpha), await ask(beta)]).toEqual(['alpha', 'beta']);

    await network().cut('alpha');
    // Packets vanish: no refusal, no reset, only silence.
    expect([await ask(alpha), await ask(beta)]).toEqual(['timeout', 'beta']);

    await network().heal('alpha');
    expect(await ask(alpha)).toBe('alpha');
  });
});

describeWithHostNetwork('deleting host networks', { hosts: ['gamma'] }, () => {
  it('kills what runs in its namespaces and deletes them', async () => {
    const network = await createHostNetwork({ hosts: ['gamma'] });
    const server = serve(network, 'gamma');
    while (!server.output.includes('listening')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(namespaces()).toContain(`qsp-${process.pid}-${network.id}-gamma`);

    await network.destroy();
    expect(await server.exited).toBe('SIGKILL');
    expect(namespaces()).not.toContain(`-${network.id}-`);
  });

  it('deletes the namespaces a killed run left behind when the next network is made', async () => {
    // A pid that was alive a moment ago and is not any more: a test worker killed mid-run.
    const gone = execFileSync(process.execPath, ['-p', 'process.pid']).toString().trim();
    const orphan = `qsp-${gone}-0ddba1-gamma`;
    execFileSync('ip', ['netns', 'add', orphan]);
    const network = await createHostNetwork({ hosts: ['gamma'] });
    await network.destroy();
    expect(namespaces()).not.toContain(orphan);
  });
});
