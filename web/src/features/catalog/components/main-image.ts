import type { Shirt } from '@qrshirt/contracts';

/** Spec: the card shows the image flagged isMain, else the first one. */
export function mainImage(shirt: Shirt): Shirt['images'][number] | undefined {
  return shirt.images.find((image) => image.isMain) ?? shirt.images[0];
}
