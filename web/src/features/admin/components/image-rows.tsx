import { ActionIcon, Button, Checkbox, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FieldErrors, ownError } from './field-errors';
import { type ImageValues, newImage } from './shirt-values';

interface ImageRowsProps {
  images: ImageValues[];
  fields: FieldErrors;
  onChange: (images: ImageValues[]) => void;
}

/** The shirt's images: address, description and which one is the main image; problems per row. */
export function ImageRows({ images, fields, onChange }: ImageRowsProps) {
  const change = (index: number, patch: Partial<ImageValues>) =>
    onChange(images.map((image, at) => (at === index ? { ...image, ...patch } : image)));
  // One main image at most: choosing one unchooses the others.
  const chooseMain = (index: number, isMain: boolean) =>
    onChange(images.map((image, at) => ({ ...image, isMain: at === index ? isMain : isMain ? false : image.isMain })));
  const listError = ownError(fields, 'images');

  return (
    <Fieldset legend="Images">
      <Stack gap="sm">
        {images.map((image, index) => (
          <Group key={image.id} align="flex-start" wrap="wrap" gap="sm">
            <TextInput
              label={`Image ${index + 1} address`}
              placeholder="https://… or /images/…"
              value={image.url}
              onChange={(event) => change(index, { url: event.currentTarget.value })}
              error={ownError(fields, `images.${index}.url`) ?? ownError(fields, `images.${index}.id`)}
              flex="2 1 220px"
            />
            <TextInput
              label={`Image ${index + 1} description`}
              value={image.alt}
              onChange={(event) => change(index, { alt: event.currentTarget.value })}
              error={ownError(fields, `images.${index}.alt`)}
              flex="1 1 160px"
            />
            <Checkbox
              label="Main image"
              checked={image.isMain}
              onChange={(event) => chooseMain(index, event.currentTarget.checked)}
              mt={32}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={28}
              aria-label={`Remove image ${index + 1}`}
              onClick={() => onChange(images.filter((_, at) => at !== index))}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
        {listError && (
          <Text c="red" size="sm" role="alert">
            {listError}
          </Text>
        )}
        <Button
          variant="default"
          size="xs"
          onClick={() => onChange([...images, newImage(images.length === 0)])}
          w="fit-content"
        >
          Add image
        </Button>
      </Stack>
    </Fieldset>
  );
}
