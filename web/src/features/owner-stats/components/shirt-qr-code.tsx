import { Anchor, Group, Image, Stack } from '@mantine/core';
import { apiUrl } from '@/lib/http';

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
  const base = apiUrl(`/api/fundraisers/${encodeURIComponent(fundraiserId)}`);
  return (
    <Stack gap={4} align="center">
      <Image
        src={`${base}/qr.svg`}
        alt={`QR code for ${name}: scanning it opens its fundraiser page`}
        w={120}
        h={120}
        loading="lazy"
      />
      <Group gap="sm">
        <Anchor href={`${base}/qr.png?download=1`} download={`${fileName(name)}-qr.png`} size="sm">
          Download PNG
        </Anchor>
        <Anchor href={`${base}/qr.svg?download=1`} download={`${fileName(name)}-qr.svg`} size="sm">
          Download SVG
        </Anchor>
      </Group>
    </Stack>
  );
}
