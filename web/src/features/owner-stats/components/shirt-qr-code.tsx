import { Anchor, Group, Image, Stack } from '@mantine/core';
import { operationUrl } from '@/lib/http';

interface ShirtQrCodeProps {
  fundraiserId: string;
  name: string;
}

function fileName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'shirt'
  );
}

/**
 * The shirt's QR code (its short link /q/{code} opens /fundraiser/{id}?scan=true), drawn by the
 * gateway with the `qrcode` library, and downloads of it as PNG and SVG (`download=1` makes the gateway send it as a file).
 */
export function ShirtQrCode({ fundraiserId, name }: ShirtQrCodeProps) {
  const params = { id: fundraiserId };
  return (
    <Stack gap={4} align="center">
      <Image
        src={operationUrl('getQrSvg', { params })}
        alt={`QR code for ${name}: scanning it opens its fundraiser page`}
        w={120}
        h={120}
        loading="lazy"
      />
      <Group gap="sm">
        <Anchor
          href={operationUrl('getQrPng', { params, query: { download: '1' } })}
          download={`${fileName(name)}-qr.png`}
          size="sm"
        >
          Download PNG
        </Anchor>
        <Anchor
          href={operationUrl('getQrSvg', { params, query: { download: '1' } })}
          download={`${fileName(name)}-qr.svg`}
          size="sm"
        >
          Download SVG
        </Anchor>
      </Group>
    </Stack>
  );
}
