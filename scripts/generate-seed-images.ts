/**
 * Draws the seeded catalogue's images as small SVG files under services/gateway/public/images,
 * from services/core/src/catalogue/catalog-data.ts. Deterministic: the same data gives the same bytes,
 * so re-running it after a data change shows up as a reviewable diff.
 *
 *   npx tsx scripts/generate-seed-images.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type SeedCharity,
  type SeedShirt,
  type ShirtView,
  charityLogoUrl,
  seedCharities,
  seedShirts,
  shirtImageUrl,
} from '@qrshirt/core';

const publicDir = fileURLToPath(new URL('../services/gateway/public', import.meta.url));
const SIZE = 600;
const FONT = 'Helvetica, Arial, sans-serif';

// ---- colours -------------------------------------------------------------------------------

function rgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function shade(hex: string, factor: number): string {
  const channels = rgb(hex).map((channel) => Math.round(channel * factor));
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * A QR code reads dark-on-light: dark ink is printed on a white patch, light ink becomes the
 * patch and the fabric shows through as the modules.
 */
function qrColours(fabric: string, ink: string): { dark: string; light: string } {
  return luminance(ink) < luminance(fabric) ? { dark: ink, light: '#ffffff' } : { dark: fabric, light: ink };
}

// ---- text ----------------------------------------------------------------------------------

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[char]};`,
  );
}

/** A font size at which `text` fits in `width` (bold sans averages ~0.6em per character). */
function fittingSize(text: string, width: number, max: number): number {
  return Math.min(max, Math.floor(width / (0.6 * text.length)));
}

function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= maxChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function textLine(text: string, x: number, y: number, size: number, fill: string): string {
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="700" fill="${fill}" text-anchor="middle">${escapeXml(text)}</text>`;
}

// ---- QR-like pattern -----------------------------------------------------------------------

const MODULES = 21;
const QUIET = 2;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-1-sized grid with finder squares and timing lines, filled with seeded noise. */
function qrGrid(seed: string): boolean[][] {
  const random = mulberry32(fnv1a(seed));
  const finderAt = (row: number, col: number): boolean | undefined => {
    for (const [top, left] of [
      [0, 0],
      [0, MODULES - 7],
      [MODULES - 7, 0],
    ] as const) {
      const r = row - top;
      const c = col - left;
      if (r >= -1 && r <= 7 && c >= -1 && c <= 7) {
        if (r < 0 || r > 6 || c < 0 || c > 6) return false;
        return r === 0 || r === 6 || c === 0 || c === 6 || (r >= 2 && r <= 4 && c >= 2 && c <= 4);
      }
    }
    return undefined;
  };
  return Array.from({ length: MODULES }, (_, row) =>
    Array.from({ length: MODULES }, (_, col) => {
      const finder = finderAt(row, col);
      if (finder !== undefined) return finder;
      if (row === 6 || col === 6) return (row + col) % 2 === 0;
      return random() < 0.5;
    }),
  );
}

/** The grid as one path of horizontal runs, in module units. */
function qrPath(grid: boolean[][]): string {
  const parts: string[] = [];
  grid.forEach((cells, row) => {
    let col = 0;
    while (col < cells.length) {
      if (!cells[col]) {
        col += 1;
        continue;
      }
      const start = col;
      while (cells[col]) col += 1;
      const run = col - start;
      parts.push(`M${start + QUIET} ${row + QUIET}h${run}v1h-${run}z`);
    }
  });
  return parts.join('');
}

function qrCode(shirt: SeedShirt, x: number, y: number, size: number): string {
  const { dark, light } = qrColours(shirt.artwork.fabric, shirt.artwork.ink);
  const scale = size / (MODULES + 2 * QUIET);
  return (
    `<g transform="translate(${x} ${y})">` +
    `<rect width="${size}" height="${size}" rx="${Math.round(scale)}" fill="${light}"/>` +
    `<path transform="scale(${+scale.toFixed(4)})" shape-rendering="crispEdges" fill="${dark}" d="${qrPath(qrGrid(shirt.shirtId))}"/>` +
    `</g>`
  );
}

// ---- shirt views ---------------------------------------------------------------------------

const BACKDROP = '#f3f1ec';

function shirtBody(neckDip: number): string {
  return (
    `M225 95Q300 ${95 + neckDip} 375 95L470 125L560 215L495 282L465 255L465 530` +
    `Q300 545 135 530L135 255L105 282L40 215L130 125Z`
  );
}

function silhouette(shirt: SeedShirt, neckDip: number): string {
  const { fabric } = shirt.artwork;
  const seam = shade(fabric, 0.78);
  return (
    `<ellipse cx="300" cy="548" rx="200" ry="14" fill="#000" fill-opacity=".08"/>` +
    `<path d="${shirtBody(neckDip)}" fill="${fabric}" stroke="${seam}" stroke-width="3" stroke-linejoin="round"/>` +
    `<path d="M225 95Q300 ${95 + neckDip} 375 95" fill="none" stroke="${seam}" stroke-width="10" stroke-linecap="round"/>` +
    `<path d="M62 237L117 292M538 237L483 292" stroke="${seam}" stroke-width="3" fill="none"/>`
  );
}

function frontView(shirt: SeedShirt): string {
  const { ink, caption } = shirt.artwork;
  return (
    silhouette(shirt, 55) +
    qrCode(shirt, 235, 185, 130) +
    textLine(caption, 300, 360, fittingSize(caption, 300, 26), ink)
  );
}

function backView(shirt: SeedShirt): string {
  const { ink, punchline } = shirt.artwork;
  const lines = wrap(punchline, 16);
  const size = fittingSize(
    lines.reduce((a, b) => (a.length >= b.length ? a : b)),
    290,
    34,
  );
  return (
    silhouette(shirt, 18) +
    lines.map((line, i) => textLine(line, 300, 200 + i * Math.round(size * 1.3), size, ink)).join('') +
    textLine('♥', 300, 200 + lines.length * Math.round(size * 1.3) + 30, 36, ink)
  );
}

function detailView(shirt: SeedShirt): string {
  const { fabric, ink, caption } = shirt.artwork;
  const stitch = shade(fabric, 0.7);
  return (
    `<defs><pattern id="weave" width="8" height="8" patternUnits="userSpaceOnUse">` +
    `<path d="M0 8L8 0" stroke="#000" stroke-opacity=".07"/></pattern></defs>` +
    `<rect width="${SIZE}" height="${SIZE}" fill="${fabric}"/>` +
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#weave)"/>` +
    `<rect x="28" y="28" width="544" height="544" rx="20" fill="none" stroke="${stitch}" stroke-width="4" stroke-dasharray="14 10"/>` +
    qrCode(shirt, 130, 80, 340) +
    textLine(caption, 300, 510, fittingSize(caption, 460, 40), ink)
  );
}

function foldedView(shirt: SeedShirt): string {
  const { fabric, ink, caption } = shirt.artwork;
  const seam = shade(fabric, 0.78);
  return (
    `<ellipse cx="300" cy="492" rx="190" ry="14" fill="#000" fill-opacity=".1"/>` +
    `<rect x="130" y="190" width="340" height="290" rx="14" fill="${fabric}" stroke="${seam}" stroke-width="3"/>` +
    `<path d="M200 192V478M400 192V478" stroke="${seam}" stroke-width="2" stroke-opacity=".6"/>` +
    `<path d="M232 191Q300 252 368 191Z" fill="${shade(fabric, 0.62)}"/>` +
    `<path d="M232 191Q300 252 368 191" fill="none" stroke="${shade(fabric, 0.88)}" stroke-width="12" stroke-linecap="round"/>` +
    qrCode(shirt, 250, 262, 100) +
    textLine(caption, 300, 400, fittingSize(caption, 190, 18), ink)
  );
}

const views: Record<ShirtView, (shirt: SeedShirt) => string> = {
  front: frontView,
  back: backView,
  detail: detailView,
  folded: foldedView,
};

function shirtSvg(shirt: SeedShirt, view: ShirtView, alt: string): string {
  const backdrop = view === 'detail' ? '' : `<rect width="${SIZE}" height="${SIZE}" fill="${BACKDROP}"/>`;
  return svgDocument(SIZE, alt, backdrop + views[view](shirt));
}

// ---- charity logos -------------------------------------------------------------------------

function charitySvg(charity: SeedCharity): string {
  const { monogram, colour } = charity.artwork;
  const letters = luminance(colour) > 150 ? '#1d1d1f' : '#ffffff';
  const size = [0, 96, 80, 60][monogram.length] ?? 48;
  return svgDocument(
    200,
    `${charity.name} logo`,
    `<circle cx="100" cy="100" r="96" fill="${colour}"/>` +
      `<circle cx="100" cy="100" r="84" fill="none" stroke="${letters}" stroke-opacity=".35" stroke-width="3"/>` +
      `<text x="100" y="100" dy=".35em" font-family="${FONT}" font-size="${size}" font-weight="700" fill="${letters}" text-anchor="middle">${escapeXml(monogram)}</text>`,
  );
}

// ---- files ---------------------------------------------------------------------------------

function svgDocument(size: number, title: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img">` +
    `<title>${escapeXml(title)}</title>${body}</svg>\n`
  );
}

/** Files are named after their public URL, so the data and the disk cannot disagree. */
function fileFor(url: string): string {
  return join(publicDir, ...url.split('/').filter(Boolean));
}

function writeAll(folder: string, files: Map<string, string>): void {
  const dir = join(publicDir, 'images', folder);
  mkdirSync(dir, { recursive: true });
  // The folder holds generated files only: drop those of entries that no longer exist.
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.svg') && !files.has(join(dir, name))) rmSync(join(dir, name));
  }
  for (const [path, content] of files) writeFileSync(path, content);
}

const shirtFiles = new Map<string, string>();
for (const shirt of seedShirts) {
  shirt.images.forEach((image, index) => {
    shirtFiles.set(fileFor(shirtImageUrl(shirt.shirtId, index + 1)), shirtSvg(shirt, image.view, image.alt));
  });
}
const charityFiles = new Map(
  seedCharities.map((charity) => [fileFor(charityLogoUrl(charity.charityId)), charitySvg(charity)]),
);

writeAll('shirts', shirtFiles);
writeAll('charities', charityFiles);
console.log(`Wrote ${shirtFiles.size} shirt images and ${charityFiles.size} charity logos under ${publicDir}/images`);
