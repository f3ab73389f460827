import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, maskEmails } from '../src';

interface Line {
  msg: string;
  [field: string]: unknown;
}

describe('a process’s log lines', () => {
  let dir: string;
  let lines: Line[];
  let text: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-log-redaction-'));
    const log = await createLogger({ service: 'gateway', level: 'trace', logDir: dir });
    // What a careless call could hand the logger: a body, a mail, errors quoting input.
    log.debug({ body: { name: 'Zelda Quartermain', email: 'zelda@example.com' } }, 'join');
    log.info({ email: 'zelda@example.com', displayName: 'Zelda Quartermain', phoneNumber: '+15550100' }, 'signed up');
    log.info(
      { message: { to: 'zelda@example.com', subject: 'Welcome', text: 'Hello Zelda Quartermain', html: '<p>Zelda' } },
      'mail',
    );
    log.info({ user: { name: 'Zelda Quartermain', email: 'Zelda.Q+shop@Example.co.uk' } }, 'nested');
    log.error({ err: new Error('Invalid email "zelda@example.com"') }, 'unhandled error');
    log.warn({ err: '550 5.1.1 <zelda@mail.example.org>: Recipient address rejected' }, 'mail not delivered');
    log.info({ req: { url: '/api/shirts?contact=zelda%40example.com&sort=new' } }, 'request');
    log.info('written for jösé@exämple.de\nand for zelda@example.com');
    log.info({ version: 'pino@10.4.0', scope: '/node_modules/@qrshirt/core' }, 'not addresses');
    log.flush();
    const [file] = (await import('node:fs')).readdirSync(dir);
    text = await readFile(path.join(dir, file!), 'utf8');
    lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hold no name, email address or phone number, whatever field or message carried them', () => {
    expect(lines).toHaveLength(9);
    for (const personal of ['Zelda', 'zelda', 'example.co', 'mail.example', 'jösé', '+15550100']) {
      expect(text, personal).not.toContain(personal);
    }
  });

  it('keep what an operator needs, with the personal parts marked', () => {
    const byMsg = (msg: string) => lines.find((line) => line.msg === msg)!;
    expect(byMsg('signed up')).toMatchObject({
      email: '[redacted]',
      displayName: '[redacted]',
      phoneNumber: '[redacted]',
    });
    expect(byMsg('mail')).toMatchObject({ message: { to: '[redacted]', subject: 'Welcome', text: '[redacted]' } });
    expect(byMsg('unhandled error')).toMatchObject({ err: { message: 'Invalid email "[email]"' } });
    expect(byMsg('mail not delivered').err).toBe('550 5.1.1 <[email]>: Recipient address rejected');
    expect(byMsg('request')).toMatchObject({ req: { url: '/api/shirts?contact=[email]&sort=new' } });
    expect(lines.at(-2)!.msg).toBe('written for [email]\nand for [email]');
    expect(byMsg('not addresses')).toMatchObject({ version: 'pino@10.4.0', scope: '/node_modules/@qrshirt/core' });
  });

  it('stay valid JSON when an address follows an escape', () => {
    const line = JSON.stringify({ msg: 'a\nzelda@example.com \u001bzelda@example.com \\zelda@example.com' });
    expect(JSON.parse(maskEmails(line))).toEqual({ msg: 'a\n[email] \u001b[email] \\[email]' });
  });
});
