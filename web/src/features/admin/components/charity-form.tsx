import { Stack, Textarea, TextInput } from '@mantine/core';
import type { AdminCharityDetails, AdminUpdateCharityRequest } from '@qrshirt/contracts';
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
  legalName: string;
  taxId: string;
}

const fieldNames = ['name', 'mission', 'website_url', 'logo_url', 'legalName', 'taxId'] as const;
/** Left empty, a new charity has none (its receipts give its name, and no tax id). */
const optionalFields = ['logo_url', 'legalName', 'taxId'] as const;

function valuesOf(charity: AdminCharityDetails | undefined): CharityValues {
  return {
    name: charity?.name ?? '',
    mission: charity?.mission ?? '',
    website_url: charity?.website_url ?? '',
    logo_url: charity?.logo_url ?? '',
    legalName: charity?.legalName ?? '',
    taxId: charity?.taxId ?? '',
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
export function CharityForm({
  charity,
  onSaved,
}: {
  charity?: AdminCharityDetails;
  onSaved: (saved: AdminCharityDetails) => void;
}) {
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
      const given = optionalFields.filter((name) => values[name].trim());
      const { name, mission, website_url } = values;
      create.mutate(
        { name, mission, website_url, ...Object.fromEntries(given.map((field) => [field, values[field]])) },
        { onSuccess: (saved) => onSaved(saved) },
      );
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
        <TextInput
          label="Legal name"
          description={
            charity?.legalName
              ? "The name it is registered under, on donors' receipts; left empty, the current one stays"
              : "The name it is registered under, on donors' receipts; left empty, they give its name (optional)"
          }
          {...field('legalName')}
        />
        <TextInput
          label="Tax id (EIN)"
          description={
            charity?.taxId
              ? "Its US EIN, on donors' receipts; left empty, the current one stays"
              : "Its US EIN, on donors' receipts, like 12-3456789 (optional)"
          }
          placeholder="12-3456789"
          {...field('taxId')}
        />
        <SaveRow unchanged={unchanged} saving={saving} label={charity ? 'Save changes' : 'Create charity'} />
      </Stack>
    </form>
  );
}
