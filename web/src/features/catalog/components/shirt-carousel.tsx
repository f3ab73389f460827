import { ActionIcon, AspectRatio, Badge, Group, Image } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { useRef, useState } from 'react';
import { useHydrated } from '@/lib/use-hydrated';
import classes from './shirt-carousel.module.css';

interface ShirtCarouselProps {
  images: Shirt['images'];
  shirtName: string;
}

/** Pictures of a shirt: previous/next, a 'current / total' counter, thumbnails, swipe on touch. */
export function ShirtCarousel({ images, shirtName }: ShirtCarouselProps) {
  const [selected, setSelected] = useState(0);
  const track = useRef<HTMLDivElement>(null);
  const total = images.length;
  // On a page the server rendered, the buttons wait for the page to be live, where a tap works.
  const live = useHydrated();

  const show = (index: number) => {
    const next = (index + total) % total;
    setSelected(next);
    const element = track.current;
    element?.scrollTo?.({ left: next * element.clientWidth, behavior: 'smooth' });
  };

  // Swiping moves the track itself: the selected picture follows where it comes to rest.
  const followScroll = () => {
    const element = track.current;
    if (!element || element.clientWidth === 0) return;
    setSelected(Math.min(Math.round(element.scrollLeft / element.clientWidth), total - 1));
  };

  if (total === 0) {
    return (
      <AspectRatio ratio={1}>
        <Image src="/favicon.svg" alt={`No pictures of ${shirtName} yet`} />
      </AspectRatio>
    );
  }

  return (
    <div>
      <div
        className={classes.viewport}
        role="region"
        aria-roledescription="carousel"
        aria-label={`Pictures of ${shirtName}`}
      >
        <div ref={track} className={classes.track} onScroll={followScroll} tabIndex={0}>
          {images.map((image, index) => (
            <div
              key={image.id}
              className={classes.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${total}`}
              aria-hidden={index !== selected}
            >
              <AspectRatio ratio={1}>
                {/* The first picture is the page's largest paint: fetched at once, not when laid out. */}
                {index === 0 ? (
                  <Image src={image.url} alt={image.alt} fetchPriority="high" />
                ) : (
                  <Image src={image.url} alt={image.alt} loading="lazy" />
                )}
              </AspectRatio>
            </div>
          ))}
        </div>
        {total > 1 && (
          <div className={classes.controls}>
            <ActionIcon
              variant="white"
              color="dark"
              size="lg"
              radius="xl"
              aria-label="Previous image"
              disabled={!live}
              onClick={() => show(selected - 1)}
            >
              ‹
            </ActionIcon>
            <ActionIcon
              variant="white"
              color="dark"
              size="lg"
              radius="xl"
              aria-label="Next image"
              disabled={!live}
              onClick={() => show(selected + 1)}
            >
              ›
            </ActionIcon>
          </div>
        )}
        <Badge className={classes.counter} color="dark" aria-live="polite" data-testid="carousel-counter">
          {selected + 1} / {total}
        </Badge>
      </div>
      {total > 1 && (
        <Group gap="xs" mt="sm">
          {images.map((image, index) => (
            <button
              key={image.id}
              type="button"
              className={classes.thumbnail}
              aria-label={`Show image ${index + 1}: ${image.alt}`}
              aria-current={index === selected}
              disabled={!live}
              onClick={() => show(index)}
            >
              {/* Square before it loads, so what follows the thumbnails does not move when it does. */}
              <AspectRatio ratio={1}>
                <Image src={image.url} alt="" loading="lazy" />
              </AspectRatio>
            </button>
          ))}
        </Group>
      )}
    </div>
  );
}
