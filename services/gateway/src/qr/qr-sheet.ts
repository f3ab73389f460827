import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import QRCode from 'qrcode';
import { fundraiserShortUrl, qrCodeOptions, qrSideModules } from './fundraiser-qr';

interface SheetCode {
  /** The fundraiser's short code: what its QR code encodes, and printed under it. */
  shortCode: string;
  /** Printed small under the code, so the print shop can match codes and shirts. */
  caption: string;
}

const MM = 72 / 25.4;
/** A4 portrait, in points. */
const PAGE = { width: 210 * MM, height: 297 * MM };
const MARGIN = 15 * MM;
const COLUMNS = 3;
const ROWS = 4;
const QR_SIZE = 45 * MM;
const CODE_FONT_SIZE = 14;
const CAPTION_FONT_SIZE = 8;
/*
 * Print shops ask for at least 300 dpi; the code's pixels are drawn at 400 or more at its printed
 * size, a whole number of them per module so no module's edge is blurred.
 */
const MIN_DPI = 400;

/** The standard PDF fonts know Windows-1252 only: anything else is shown as "?" rather than failing the sheet. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\u00A0-\u00FF]/g, '?');

async function qrPng(url: string): Promise<Buffer> {
  const pixelsPerModule = Math.ceil((MIN_DPI * (QR_SIZE / 72)) / qrSideModules(url));
  return QRCode.toBuffer(url, { ...qrCodeOptions(url, pixelsPerModule), type: 'png' });
}

/**
 * A print-ready PDF of fundraisers' QR codes: A4 pages of 3 by 4, each code 45 mm wide with its
 * quiet zone, the short code printed under it (a person whose phone cannot scan the shirt types
 * it after `/q/`; the print shop matches codes and shirts by it).
 */
export async function renderQrSheet({
  publicBaseUrl,
  title,
  codes,
}: {
  publicBaseUrl: string;
  title: string;
  codes: readonly SheetCode[];
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(title));
  pdf.setProducer('QR Shirts');
  const [mono, sans] = await Promise.all([
    pdf.embedFont(StandardFonts.CourierBold),
    pdf.embedFont(StandardFonts.Helvetica),
  ]);
  const perPage = COLUMNS * ROWS;
  const cellWidth = (PAGE.width - 2 * MARGIN) / COLUMNS;
  const cellHeight = (PAGE.height - 2 * MARGIN) / ROWS;
  const pages = Math.ceil(codes.length / perPage);
  for (let index = 0; index < codes.length; index += 1) {
    const { shortCode, caption } = codes[index]!;
    const slot = index % perPage;
    if (slot === 0) {
      const page = pdf.addPage([PAGE.width, PAGE.height]);
      const header = printable(`${title} - page ${index / perPage + 1} of ${pages}`);
      page.drawText(header, { x: MARGIN, y: PAGE.height - MARGIN / 2 - 3, size: CAPTION_FONT_SIZE, font: sans });
    }
    const page = pdf.getPage(pdf.getPageCount() - 1);
    const column = slot % COLUMNS;
    const row = Math.floor(slot / COLUMNS);
    const left = MARGIN + column * cellWidth;
    const top = PAGE.height - MARGIN - row * cellHeight;
    const image = await pdf.embedPng(await qrPng(fundraiserShortUrl(publicBaseUrl, shortCode)));
    const x = left + (cellWidth - QR_SIZE) / 2;
    const y = top - QR_SIZE - 4 * MM;
    page.drawImage(image, { x, y, width: QR_SIZE, height: QR_SIZE });
    const code = printable(shortCode);
    const codeWidth = mono.widthOfTextAtSize(code, CODE_FONT_SIZE);
    page.drawText(code, {
      x: left + (cellWidth - codeWidth) / 2,
      y: y - CODE_FONT_SIZE,
      size: CODE_FONT_SIZE,
      font: mono,
      color: rgb(0, 0, 0),
    });
    const small = printable(caption);
    const smallWidth = sans.widthOfTextAtSize(small, CAPTION_FONT_SIZE);
    page.drawText(small, {
      x: left + (cellWidth - Math.min(smallWidth, cellWidth)) / 2,
      y: y - CODE_FONT_SIZE - CAPTION_FONT_SIZE - 2,
      size: CAPTION_FONT_SIZE,
      font: sans,
      maxWidth: cellWidth,
    });
  }
  return pdf.save();
}
