import { Stack, Textarea, TextInput } from '@mantine/core';
import type { AdminUpdateCharityRequest, Charity } from '@qrshirt/contracts';
import { useCreateCharity } from '../api/create-charity';
import { useUpdateCharity } from '../api/update-charity';
import { ownError, saveProblem } from './field-errors';
import { FormProblemAlert } from './form-problem-alert';
import { SaveRow } from './save-row';
import { useEditForm } from './use-edit-form';

interface CharityValues {
  name: string;
  mission: string;
  website_url: string;
  logo_url: string;
}

const fieldNames = ['name', 'mission', 'website_url', 'logo_url'] as const;

function valuesOf(charity: Charity | undefined): CharityValues {
  return {
    name: charity?.name ?? '',
    mission: charity?.mission ?? '',
    website_url: charity?.website_url ?? '',
    logo_url: charity?.logo_url ?? '',
  };
}

/** An update sends only what changed: the server refuses an update that changes nothing. */
function changesFrom(before: CharityValues, after: CharityValues): AdminUpdateCharityRequest {
  return Object.fromEntries(
    fieldNames.filter((name) => after[name].trim() !== before[name].trim()).map((name) => [name, after[name]]),
  );
}

/**
 * Creates a charity, or edits the one given. The server validates; its 400 names each field's
 * problem, shown under that field. `onSaved` runs once the shop shows the change.
 */
export function CharityForm({ charity, onSaved }: { charity?: Charity; onSaved: (saved: Charity) => void }) {
  const { initial, values, unchanged, text, saveChanges } = useEditForm(() => valuesOf(charity));
  const create = useCreateCharity();
  const update = useUpdateCharity();
  const saving = create.isPending || update.isPending;
  const problem = saveProblem(charity ? update.error : create.error);
  const fields = problem?.fields ?? {};

  const field = (name: keyof CharityValues) => ({ ...text(name), error: ownError(fields, name) });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!charity) {
      const { logo_url, ...required } = values;
      create.mutate({ ...required, ...(logo_url.trim() && { logo_url }) }, { onSuccess: (saved) => onSaved(saved) });
      return;
    }
    saveChanges(changesFrom(initial, values), (changes) =>
      update.mutate({ charityId: charity.id, changes }, { onSuccess: (saved) => onSaved(saved) }),
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={charity ? `Edit ${charity.name}` : 'New charity'}>
      <Stack gap="sm">
        <FormProblemAlert problem={problem} />
        <TextInput label="Name" {...field('name')} />
        <Textarea label="Mission" rows={3} {...field('mission')} />
        <TextInput label="Website" placeholder="https://example.org" {...field('website_url')} />
        <TextInput
          label="Logo"
          description={
            charity?.logo_url
              ? 'An https:// image address or a path on this site; left empty, the current logo stays'
              : 'An https:// image address or a path on this site, like /images/logo.svg (optional)'
          }
          placeholder="https://example.org/logo.svg"
          {...field('logo_url')}
        />
        <SaveRow unchanged={unchanged} saving={saving} label={charity ? 'Save changes' : 'Create charity'} />
      </Stack>
    </form>
  );
}
