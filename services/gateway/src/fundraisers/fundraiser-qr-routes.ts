import type { fundraiserQrRoutes } from '@qrshirt/contracts';
import type { Response } from 'express';
import type { HandlersOf } from '../http/route-table';
import { createFundraiserQrCodes, type QrFormat, qrContentTypes } from '../qr/fundraiser-qr';
import type { RouteDeps } from '../route-deps';

/*
 * A QR code depends only on the fundraiser's short code, which never changes once given, and
 * PUBLIC_BASE_URL: a day in caches is how long a changed base URL may take to show.
 */
const QR_CACHE_CONTROL = 'public, max-age=86400';

/** The fundraisers module's routes that answer with an image rather than JSON. */
export function fundraiserQrHandlers({ useCases, publicBaseUrl }: RouteDeps): HandlersOf<typeof fundraiserQrRoutes> {
  const { fundraisers } = useCases;
  const qrCodes = createFundraiserQrCodes({ publicBaseUrl, shortCodeOf: fundraisers.shortCode });

  async function sendQrCode(res: Response, id: string, format: QrFormat, download: string | undefined) {
    const image = await qrCodes.image(id, format);
    // Ids are letters, digits, '-' and '_' (idParams): a file name as they are.
    if (download === '1' || download === 'true') res.attachment(`fundraiser-${id}-qr.${format}`);
    // After attachment(), which would set a content type of its own from the file name.
    res.set('Content-Type', qrContentTypes[format]).set('Cache-Control', QR_CACHE_CONTROL).send(image);
  }

  return {
    async getQrSvg({ params, query, res }) {
      await sendQrCode(res, params.id, 'svg', query.download);
    },
    async getQrPng({ params, query, res }) {
      await sendQrCode(res, params.id, 'png', query.download);
    },
  };
}
