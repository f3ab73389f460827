import { Group, NumberInput, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { useCreateShirt } from '../api/create-shirt';
import { useUpdateShirt } from '../api/update-shirt';
import { errorWithin, ownError, saveProblem } from './field-errors';
import { FormProblemAlert } from './form-problem-alert';
import { ImageRows } from './image-rows';
import { SaveRow } from './save-row';
import { shirtChanges, shirtRequest, shirtValuesOf } from './shirt-values';
import { useEditForm } from './use-edit-form';

/**
 * Adds a shirt, or edits the one given. The server validates; its 400 names each field's problem,
 * shown under that field (an image's under its row). `onSaved` runs once the shop shows the change.
 */
export function ShirtForm({ shirt, onSaved }: { shirt?: Shirt; onSaved: (saved: Shirt) => void }) {
  const { initial, values, unchanged, set, text, saveChanges } = useEditForm(() => shirtValuesOf(shirt));
  const create = useCreateShirt();
  const update = useUpdateShirt();
  const problem = saveProblem(shirt ? update.error : create.error);
  const fields = problem?.fields ?? {};
  const list = (name: 'sizes' | 'tags') => ({
    value: values[name],
    onChange: (items: string[]) => set(name, items),
    error: errorWithin(fields, name),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!shirt) {
      create.mutate(shirtRequest(values), { onSuccess: (saved) => onSaved(saved) });
      return;
    }
    saveChanges(shirtChanges(initial, values), (changes) =>
      update.mutate({ shirtId: shirt.id, changes }, { onSuccess: (saved) => onSaved(saved) }),
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={shirt ? `Edit ${shirt.name}` : 'New shirt'}>
      <Stack gap="sm">
        <FormProblemAlert problem={problem} />
        <TextInput label="Name" {...text('name')} error={ownError(fields, 'name')} />
        <Textarea label="Description" rows={3} {...text('description')} error={ownError(fields, 'description')} />
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
            {...text('category')}
            error={ownError(fields, 'category')}
          />
        </Group>
        <TagsInput label="Sizes" description="Press Enter after each size" {...list('sizes')} />
        <TagsInput label="Tags" description="Optional; press Enter after each tag" {...list('tags')} />
        <ImageRows images={values.images} fields={fields} onChange={(images) => set('images', images)} />
        <SaveRow
          unchanged={unchanged}
          saving={create.isPending || update.isPending}
          label={shirt ? 'Save changes' : 'Add shirt'}
        />
      </Stack>
    </form>
  );
}
