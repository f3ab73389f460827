import { LRUCache } from 'lru-cache';
import QRCode, { type QRCodeErrorCorrectionLevel, type QRCodeToBufferOptions } from 'qrcode';

export type QrFormat = 'svg' | 'png';

export const qrContentTypes: Record<QrFormat, string> = {
  svg: 'image/svg+xml; charset=utf-8',
  png: 'image/png',
};

/*
 * Printed on a shirt, a code gets creased and stretched: level Q still reads with a quarter of it
 * unreadable. The margin is the quiet zone of 4 modules the QR standard asks for, and a whole
 * number of pixels per module keeps every module's edges sharp in the PNG (the SVG is what prints
 * at any size).
 */
const ERROR_CORRECTION: QRCodeErrorCorrectionLevel = 'Q';
const MARGIN_MODULES = 4;
const PIXELS_PER_MODULE = 10;
/*
 * Grey rather than RGBA: the PNG encoder (pngjs, in JavaScript, on the event loop) then filters and
 * compresses a quarter of the bytes, which measured about half the time and half the file.
 * pngjs takes colorType; the qrcode typings list only the deflate options.
 */
const pngRendererOptions = { colorType: 0 } as QRCodeToBufferOptions['rendererOpts'];
/** Rendered images kept per process: each is a few kilobytes, and costs milliseconds of CPU to draw. */
const CACHED_IMAGES = 1_000;

/**
 * What a fundraiser's QR code encodes: its short link, which the gateway sends on to the
 * fundraiser's page as a scan. Short, so the code has few and large modules (version 4 at level Q
 * for a base URL of up to 35 characters, where the page's own address made version 7).
 */
export function fundraiserShortUrl(publicBaseUrl: string, shortCode: string): string {
  return `${publicBaseUrl}/q/${shortCode}`;
}

/** Modules across the code, its quiet zone included. */
export function qrSideModules(text: string): number {
  return QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION }).modules.size + 2 * MARGIN_MODULES;
}

/** The options both formats are drawn with, so the SVG and the PNG have the same size. */
export function qrCodeOptions(text: string, pixelsPerModule = PIXELS_PER_MODULE) {
  return {
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN_MODULES,
    width: qrSideModules(text) * pixelsPerModule,
    rendererOpts: pngRendererOptions,
  };
}

/**
 * Each fundraiser's QR code, drawn once per process and format: it depends only on the fundraiser's
 * short code, which never changes once given, and on PUBLIC_BASE_URL. `shortCodeOf` refuses an
 * unknown fundraiser before anything is drawn.
 */
export function createFundraiserQrCodes({
  publicBaseUrl,
  shortCodeOf,
}: {
  publicBaseUrl: string;
  shortCodeOf: (fundraiserId: string) => Promise<string>;
}) {
  const drawn = new LRUCache<string, string | Buffer>({ max: CACHED_IMAGES });
  return {
    async image(fundraiserId: string, format: QrFormat): Promise<string | Buffer> {
      const key = `${format}:${fundraiserId}`;
      const cached = drawn.get(key);
      if (cached !== undefined) return cached;
      const url = fundraiserShortUrl(publicBaseUrl, await shortCodeOf(fundraiserId));
      const options = qrCodeOptions(url);
      const image =
        format === 'svg'
          ? await QRCode.toString(url, { ...options, type: 'svg' })
          : await QRCode.toBuffer(url, { ...options, type: 'png' });
      drawn.set(key, image);
      return image;
    },
  };
}
