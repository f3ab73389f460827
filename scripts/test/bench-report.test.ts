import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBenchmarkReport } from '../bench/report';

describe('the benchmark report', () => {
  it('rewrites the sections of its run and keeps those of the benchmarks that run on their own', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'qrshirt-report-')), 'benchmarks.md');
    writeFileSync(
      file,
      [
        '# Benchmarks',
        '',
        '- date: then',
        '',
        '## HTTP (embedded process)',
        '',
        'old HTTP figures',
        '',
        '## Boot: time to /readyz',
        '',
        '| boot figures |',
        '',
        '## Web pages: Lighthouse',
        '',
        '| web figures |',
        '',
      ].join('\n'),
    );
    writeBenchmarkReport(
      file,
      [{ name: 'HTTP (embedded process)', figures: 'new HTTP figures', seconds: 3 }],
      new Date(),
    );
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('new HTTP figures');
    expect(report).not.toContain('old HTTP figures');
    expect(report).not.toContain('- date: then');
    expect(report.indexOf('## Boot: time to /readyz\n\n| boot figures |')).toBeGreaterThan(report.indexOf('new HTTP'));
    expect(report).toContain('## Web pages: Lighthouse\n\n| web figures |');
    expect(report.match(/^## /gm)).toHaveLength(3);
  });
});
