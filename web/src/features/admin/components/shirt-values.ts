import type { AdminCreateShirtRequest, AdminUpdateShirtRequest, Shirt } from '@qrshirt/contracts';
import { uniqueId } from '@/lib/unique-id';

export interface ImageValues {
  id: string;
  url: string;
  alt: string;
  isMain: boolean;
}

/** The shirt form's state: inputs hold text, the price may be empty. */
interface ShirtValues {
  name: string;
  description: string;
  price: number | string;
  category: string;
  sizes: string[];
  tags: string[];
  images: ImageValues[];
}

export const newImage = (isMain = false): ImageValues => ({ id: uniqueId(), url: '', alt: '', isMain });

export function shirtValuesOf(shirt: Shirt | undefined): ShirtValues {
  if (!shirt)
    return { name: '', description: '', price: '', category: '', sizes: [], tags: [], images: [newImage(true)] };
  return {
    name: shirt.name,
    description: shirt.description,
    price: shirt.price,
    category: shirt.category ?? '',
    sizes: shirt.sizes,
    tags: shirt.tags ?? [],
    images: shirt.images.map((image) => ({ ...image })),
  };
}

/**
 * What the API gets. An empty price is left out, so the server's answer names it as missing (the
 * cast: the request may be incomplete, the server says what is wrong); an empty category means none.
 */
export function shirtRequest(values: ShirtValues): AdminCreateShirtRequest {
  const { price, category, ...rest } = values;
  return {
    ...rest,
    ...(price !== '' && { price: Number(price) }),
    ...(category.trim() && { category }),
  } as AdminCreateShirtRequest;
}

/** An update sends only what changed: the server refuses an update that changes nothing. */
export function shirtChanges(before: ShirtValues, after: ShirtValues): AdminUpdateShirtRequest {
  const was = shirtRequest(before) as Record<string, unknown>;
  const now = shirtRequest(after) as Record<string, unknown>;
  const changed = Object.keys(now).filter((name) => JSON.stringify(now[name]) !== JSON.stringify(was[name]));
  return Object.fromEntries(changed.map((name) => [name, now[name]]));
}
