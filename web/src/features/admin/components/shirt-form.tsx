import { Button, Group, NumberInput, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { useState } from 'react';
import { useCreateShirt } from '../api/create-shirt';
import { useUpdateShirt } from '../api/update-shirt';
import { errorWithin, ownError, saveProblem } from './field-errors';
import { FormProblemAlert } from './form-problem-alert';
import { ImageRows } from './image-rows';
import { type ShirtValues, shirtChanges, shirtRequest, shirtValuesOf } from './shirt-values';

/**
 * Adds a shirt, or edits the one given. The server validates; its 400 names each field's problem,
 * shown under that field (an image's under its row). `onSaved` runs once the shop shows the change.
 */
export function ShirtForm({ shirt, onSaved }: { shirt?: Shirt; onSaved: (saved: Shirt) => void }) {
  const [initial] = useState(() => shirtValuesOf(shirt));
  const [values, setValues] = useState(initial);
  const [unchanged, setUnchanged] = useState(false);
  const create = useCreateShirt();
  const update = useUpdateShirt();
  const problem = saveProblem(shirt ? update.error : create.error);
  const fields = problem?.fields ?? {};

  const set = <Name extends keyof ShirtValues>(name: Name, value: ShirtValues[Name]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setUnchanged(false);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!shirt) {
      create.mutate(shirtRequest(values), { onSuccess: (saved) => onSaved(saved) });
      return;
    }
    const changes = shirtChanges(initial, values);
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    update.mutate({ shirtId: shirt.id, changes }, { onSuccess: (saved) => onSaved(saved) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={shirt ? `Edit ${shirt.name}` : 'New shirt'}>
      <Stack gap="sm">
        <FormProblemAlert problem={problem} />
        <TextInput
          label="Name"
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          error={ownError(fields, 'name')}
        />
        <Textarea
          label="Description"
          rows={3}
          value={values.description}
          onChange={(event) => set('description', event.currentTarget.value)}
          error={ownError(fields, 'description')}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Price"
            prefix="$"
            decimalScale={2}
            min={0}
            value={values.price}
            onChange={(price) => set('price', price)}
            error={ownError(fields, 'price')}
          />
          <TextInput
            label="Category"
            description="Optional"
            value={values.category}
            onChange={(event) => set('category', event.currentTarget.value)}
            error={ownError(fields, 'category')}
          />
        </Group>
        <TagsInput
          label="Sizes"
          description="Press Enter after each size"
          value={values.sizes}
          onChange={(sizes) => set('sizes', sizes)}
          error={errorWithin(fields, 'sizes')}
        />
        <TagsInput
          label="Tags"
          description="Optional; press Enter after each tag"
          value={values.tags}
          onChange={(tags) => set('tags', tags)}
          error={errorWithin(fields, 'tags')}
        />
        <ImageRows images={values.images} fields={fields} onChange={(images) => set('images', images)} />
        <Group justify="flex-end">
          {unchanged && <span role="status">Nothing changed.</span>}
          <Button type="submit" loading={create.isPending || update.isPending}>
            {shirt ? 'Save changes' : 'Add shirt'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
