/** The event the landing's scan script fires on `window` once the scan is recorded. */
export const SCAN_RECORDED = 'qrshirt:scan-recorded';
