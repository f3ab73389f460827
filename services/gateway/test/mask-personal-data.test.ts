import { describe, expect, it } from 'vitest';
import { MAX_SCANNED_LENGTH, maskPersonalData } from '../src/http/mask-personal-data';

/*
 * The event browser's masking of addresses in any text. Its speed is measured by running it, not
 * here: these tests pin down the bounds that keep its work linear in the text.
 */
const maskedText = (text: string) => (maskPersonalData('PageViewed', { text }, {}).data as { text: string }).text;

describe('masking addresses in text', () => {
  it('masks every address in free text, a URL or metadata, and leaves other text alone', () => {
    expect(maskedText('write to jane.doe+shop@mail.example.co.uk or to zoe@example.org.')).toBe(
      'write to j***@mail.example.co.uk or to z***@example.org.',
    );
    expect(maskedText('/contact?from=jane@example.com&x=1')).toBe('/contact?from=j***@example.com&x=1');
    expect(maskedText('pino@10.4.0, a@b, @example.com, nothing@here')).toBe(
      'pino@10.4.0, a@b, @example.com, nothing@here',
    );
    expect(maskPersonalData('X', {}, { note: ['by ops@example.org'] }).metadata).toEqual({
      note: ['by o***@example.org'],
    });
  });

  it('takes a local part of 64 characters at most, as RFC 5321 allows, and a domain of 255', () => {
    const local = 'x'.repeat(64);
    expect(maskedText(`${local}@example.com`)).toBe('x***@example.com');
    // Longer than any address can be: only its last 64 characters are taken for one.
    expect(maskedText(`y${local}@example.com`)).toBe('yx***@example.com');
    const domain = `${'a.'.repeat(125)}example.com`;
    expect(domain.length).toBe(261);
    expect(maskedText(`jane@${domain}`)).toBe(`j***@${domain}`);
    const label = 'l'.repeat(63);
    expect(maskedText(`jane@${label}.${label}.${label}.com`)).toBe(`j***@${label}.${label}.${label}.com`);
  });

  it('scans text up to the cap, hostile or not', () => {
    const hostile = [
      'a.'.repeat(MAX_SCANNED_LENGTH / 2),
      'a@'.repeat(MAX_SCANNED_LENGTH / 2),
      `a@${'a.'.repeat(MAX_SCANNED_LENGTH / 2 - 1)}`,
      `${'a'.repeat(MAX_SCANNED_LENGTH - 1)}@`,
    ];
    for (const text of hostile) {
      expect(text.length).toBe(MAX_SCANNED_LENGTH);
      expect(maskedText(text)).toBe(text);
    }
    const tail = ' jane@example.io';
    const head = 'a.'.repeat(MAX_SCANNED_LENGTH / 2).slice(0, MAX_SCANNED_LENGTH - tail.length);
    expect(maskedText(`${head}${tail}`)).toBe(`${head} j***@example.io`);
  });

  it('masks a longer text whole, unscanned, whatever its length: a cut could leave half an address', () => {
    const longer = (text: string) =>
      `[masked: ${text.length} characters, longer than the 10000 the browser masks addresses in]`;
    const texts = [
      'a.'.repeat(25_000),
      'a@'.repeat(25_000),
      'a.'.repeat(50_000),
      `${'a.'.repeat(MAX_SCANNED_LENGTH / 2)}jane@example.com`,
      `${'x'.repeat(MAX_SCANNED_LENGTH)}@`,
    ];
    for (const text of texts) expect(maskedText(text)).toBe(longer(text));
    expect(maskedText('a.'.repeat(50_000))).toContain('100000 characters');
  });
});
