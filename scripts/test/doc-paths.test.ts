import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '../..');
/** This file's own examples name paths that must not exist. */
const self = path.relative(root, here).split(path.sep).join('/');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const known = new Set(tracked);
for (const file of tracked) {
  const parts = file.split('/');
  for (let end = 1; end < parts.length; end++) known.add(parts.slice(0, end).join('/'));
}

/**
 * A path from the repository's root, as the docs and comments write them: it starts with a
 * top-level folder. What a build or install makes (dist/, dist-server/, node_modules/) and
 * patterns (`*`, `<name>`) are not files to find.
 */
const REPO_PATH =
  /(?<![\w./@-])((?:contracts|services|projections|web|scripts|docs|deploy|\.ci)\/[A-Za-z0-9_.\-/]*[A-Za-z0-9_])/g;
const GENERATED = /(^|\/)(dist|dist-server|node_modules|coverage)(\/|$)/;
/**
 * A file named by its name, or by the end of its path (`http/server-pages.ts`, as a package's own
 * comments name its files): some tracked file must end so.
 */
const FILE_NAME =
  /(?<![\w./@:-])((?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(?:tsx?|mjs|cjs|md|sh|toml|ya?ml|conf))(?![\w/-])/g;

/** The comments of a source file: `//` to the end of the line and `/* ... *\/` blocks; `#` lines in scripts and configs. */
function commentsOf(file: string, text: string): string {
  if (/\.(sh|ya?ml|toml)$/.test(file) || file === '.ci/run' || file === 'Dockerfile') {
    return text
      .split('\n')
      .filter((line) => /^\s*#/.test(line))
      .join('\n');
  }
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((match) => match[0]).join('\n');
}

function namedPaths(text: string): string[] {
  return [...text.matchAll(REPO_PATH)]
    .map((match) => match[1]!.replace(/\.+$/, ''))
    .filter((named) => !GENERATED.test(named));
}

function namedFiles(text: string): string[] {
  return [...text.matchAll(FILE_NAME)].map((match) => match[1]!).filter((named) => !GENERATED.test(named));
}

const isTrackedFile = (named: string): boolean => tracked.some((file) => file === named || file.endsWith(`/${named}`));

describe('paths named in the docs and in comments', () => {
  it('exist: every path or file name the README, docs/ or a code comment names is tracked', () => {
    const docs = tracked.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));
    const sources = tracked.filter(
      (file) =>
        file !== self &&
        (/\.(ts|tsx|mjs|cjs|js|sh|ya?ml|toml)$/.test(file) || file === '.ci/run' || file === 'Dockerfile'),
    );
    const missing: string[] = [];
    for (const file of [...docs, ...sources]) {
      const text = readFileSync(path.join(root, file), 'utf8');
      const searched = docs.includes(file) ? text : commentsOf(file, text);
      for (const named of namedPaths(searched)) if (!known.has(named)) missing.push(`${file}: ${named}`);
      for (const named of namedFiles(searched)) if (!isTrackedFile(named)) missing.push(`${file}: ${named}`);
    }
    expect(missing).toEqual([]);
  });

  it('finds a path that does not exist, in a doc and in a comment', () => {
    expect(namedPaths('see `services/gateway/src/landing-page.ts` and web/dist/index.html')).toEqual([
      'services/gateway/src/landing-page.ts',
    ]);
    expect(commentsOf('a.ts', "const p = 'services/x.ts'; // services/y.ts\n/* docs/z.md */")).toContain(
      'services/y.ts',
    );
    expect(commentsOf('a.ts', "const p = 'services/x.ts';")).not.toContain('services/x.ts');
    expect(namedFiles('(`landingReader` in `landing-page.ts`, see http/server-pages.ts)')).toEqual([
      'landing-page.ts',
      'http/server-pages.ts',
    ]);
    expect(isTrackedFile('http/server-pages.ts')).toBe(true);
    expect(isTrackedFile('landing-page.ts')).toBe(false);
  });
});
