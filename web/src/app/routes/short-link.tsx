import { QrLandingError } from './qr-landing';

/**
 * /q/{code}, a QR code's short link. The gateway sends a code it knows on to its fundraiser's page
 * as a scan, so the app only ever sees one that names no fundraiser (answered with a 404): the
 * landing's not-found view. Trying again asks the gateway again.
 */
export function ShortLinkRoute() {
  return <QrLandingError message="Fundraiser not found" />;
}
