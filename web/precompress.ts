import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Answers below this go out as they are: the gateway compresses nothing smaller either. */
const PRECOMPRESS_MIN_BYTES = 1024;

/** Text the build writes; images and fonts (png, woff2) are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/** The largest compression both encodings have: done once per build, read on every request. */
const precompressors = {
  br: (source: Buffer) =>
    brotliCompressSync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
  gz: (source: Buffer) => gzipSync(source, { level: constants.Z_BEST_COMPRESSION }),
};

function outputFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    // .vite/ holds the manifest, which is never served.
    if (entry.name.startsWith('.')) return [];
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? outputFiles(file) : [file];
  });
}

/**
 * Writes `file.br` and `file.gz` beside every text file of the build, for the gateway to send as
 * they are. node:zlib rather than vite-plugin-compression2, which patches Vite's manifest plugin
 * and process.stdout.write: a dozen lines here do the same, and their output depends only on the
 * input bytes (gzip writes no timestamp), so the same sources give the same files.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'qrshirt-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of outputFiles(outDir)) {
        if (!TEXT.test(file) || statSync(file).size < PRECOMPRESS_MIN_BYTES) continue;
        const source = readFileSync(file);
        for (const [extension, compress] of Object.entries(precompressors)) {
          const compressed = compress(source);
          // A variant no smaller than the file would only cost the reader a decoding.
          if (compressed.length < source.length) writeFileSync(`${file}.${extension}`, compressed);
        }
      }
    },
  };
}
