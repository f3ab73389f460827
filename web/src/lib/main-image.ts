import type { Shirt } from '@qrshirt/contracts';

/** Spec: a shirt is shown by its image flagged isMain, else its first one (shop cards, admin list). */
export function mainImage(shirt: Shirt): Shirt['images'][number] | undefined {
  return shirt.images.find((image) => image.isMain) ?? shirt.images[0];
}
