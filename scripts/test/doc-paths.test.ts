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

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated heading gets `-1`, `-2`, ...). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The links of a Markdown file that point into the repository: `[text](target)`, relative to the file. */
function localLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Each local link of `file` whose file or heading does not exist, as `file: target`. */
function brokenLinks(file: string, markdown: string, read: (file: string) => string): string[] {
  const broken: string[] = [];
  for (const target of localLinks(markdown)) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const linked = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    if (!known.has(linked.replace(/\/$/, ''))) {
      broken.push(`${file}: ${target}`);
      continue;
    }
    const headings = linked === file ? markdown : linked.endsWith('.md') ? read(linked) : undefined;
    if (anchor !== undefined && headings !== undefined && !anchorsOf(headings).has(anchor)) {
      broken.push(`${file}: ${target}`);
    }
  }
  return broken;
}

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

  it('resolve: every link between the README and docs/ reaches a tracked file and, with an anchor, its heading', () => {
    const docs = tracked.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));
    const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
    expect(docs.flatMap((file) => brokenLinks(file, read(file), read))).toEqual([]);
  });

  it('finds a link to a missing file or heading', () => {
    const files: Record<string, string> = {
      'docs/api.md': '# The API\n\n## Donations: reported, then confirmed\n\n## Admins\n\n## Admins\n',
    };
    const read = (file: string): string => files[file] ?? readFileSync(path.join(root, file), 'utf8');
    const readme = [
      '[ok](docs/api.md#donations-reported-then-confirmed) [second](docs/api.md#admins-1)',
      '[web](https://example.org/x.md) [self](#where-to-read-on) [folder](web/)',
      '[gone](docs/gone.md) [no heading](docs/api.md#donations) [no self heading](#nowhere)',
    ].join('\n');
    expect(brokenLinks('README.md', `${readme}\n\n## Where to read on\n`, read)).toEqual([
      'README.md: docs/gone.md',
      'README.md: docs/api.md#donations',
      'README.md: #nowhere',
    ]);
    expect(brokenLinks('docs/api.md', '[up](../README.md) [up, wrong](../READ.md)', read)).toEqual([
      'docs/api.md: ../READ.md',
    ]);
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
