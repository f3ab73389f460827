import type { Charity } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, type FakeAnswer, fakeApi } from '@/testing/fake-api';
import { TEST_PROOF_OF_WORK } from '@/testing/proof-of-work';
import { renderRoute } from '@/testing/render';
import { WaitlistForm } from './waitlist-form';

const shirt = { id: 'scan-me-maybe', name: 'Scan Me Maybe', sizes: ['S', 'M', 'L'] };
const charities: Charity[] = [
  {
    id: 'ocean',
    name: 'Ocean Friends',
    mission: 'Cleaner seas.',
    website_url: 'https://ocean.example',
    logo_url: '/images/ocean.svg',
  },
  { id: 'books', name: 'Books for All', mission: 'A library in every village.', website_url: 'https://books.example' },
];

function joined(name: string, email: string, size: string): FakeAnswer {
  return {
    status: 201,
    json: {
      success: true,
      message: 'Joined',
      data: { id: 'entry-1', name, email, selectedSize: size, selectedCharity: 'ocean', shirtId: shirt.id },
    },
  };
}

function renderForm(props: Partial<React.ComponentProps<typeof WaitlistForm>> = {}) {
  return renderRoute(<WaitlistForm shirt={shirt} charities={charities} charitiesLoading={false} {...props} />);
}

async function chooseCharity(user: ReturnType<typeof renderForm>['user'], name: string) {
  await user.click(screen.getByRole('combobox', { name: 'Choose a charity to support' }));
  await user.click(await screen.findByRole('option', { name }));
}

async function expectToast(title: string, message: string) {
  const toast = (await screen.findByText(title)).closest('.mantine-Notification-root') as HTMLElement;
  expect(within(toast).getByText(message)).toBeTruthy();
}

describe('the waitlist form', () => {
  it('asks for the size, then the charity, then the name, then the email, one toast per attempt', async () => {
    const api = fakeApi({});
    const { user } = renderForm();
    const submit = screen.getByRole('button', { name: 'Join Waitlist' });

    await user.click(submit);
    await expectToast('Size Required', 'Please select a size first!');

    await user.click(screen.getByRole('button', { name: 'M' }));
    await user.click(submit);
    await expectToast('Charity Required', 'Please select a charity first!');

    await chooseCharity(user, 'Ocean Friends');
    await user.type(screen.getByLabelText('Your Name'), '   ');
    await user.click(submit);
    await expectToast('Name Required', 'Please enter your name!');

    await user.type(screen.getByLabelText('Your Name'), 'Ada');
    await user.type(screen.getByLabelText('Email Address'), '  ');
    await user.click(submit);
    await expectToast('Email Required', 'Please enter your email!');

    expect(api.to('POST', '/api/waitlist')).toHaveLength(0);
  });

  it('shows the chosen charity and how many there are to choose from', async () => {
    fakeApi({});
    const { user } = renderForm();
    expect(screen.getByText('2 available')).toBeTruthy();
    await chooseCharity(user, 'Ocean Friends');
    const panel = screen.getByTestId('chosen-charity');
    expect(within(panel).getByText('Cleaner seas.')).toBeTruthy();
    expect(within(panel).getByAltText('Ocean Friends logo')).toBeTruthy();
  });

  it('sends trimmed values, says so while sending, then thanks the visitor and clears the form', async () => {
    const answer = deferred<Awaited<FakeAnswer>>();
    const api = fakeApi({ 'POST /api/waitlist': () => answer.promise });
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'L' }));
    await chooseCharity(user, 'Ocean Friends');
    await user.type(screen.getByLabelText('Your Name'), '  Ada Lovelace ');
    await user.type(screen.getByLabelText('Email Address'), ' ada@example.com  ');
    await user.click(screen.getByRole('button', { name: 'Join Waitlist' }));

    const sending = await screen.findByRole('button', { name: 'Joining Waitlist...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(api.to('POST', '/api/waitlist')).toHaveLength(1));
    // With the widget's solution, found once the form's own checks passed.
    expect(api.to('POST', '/api/waitlist')[0]!.headers['x-altcha']).toBe(TEST_PROOF_OF_WORK);
    expect(api.to('POST', '/api/waitlist')[0]!.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      selectedSize: 'L',
      selectedCharity: 'ocean',
      shirtId: 'scan-me-maybe',
    });

    answer.resolve(await joined('Ada Lovelace', 'ada@example.com', 'L'));
    await expectToast(
      'Welcome to the Waitlist! 🎉',
      "Thanks, Ada Lovelace! We'll notify you at ada@example.com when the Scan Me Maybe in size L supporting Ocean Friends becomes available.",
    );
    expect(screen.getByLabelText<HTMLInputElement>('Your Name').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Email Address').value).toBe('');
    expect(screen.getByRole('button', { name: 'L' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByTestId('chosen-charity')).toBeNull();
    expect(screen.getByRole('button', { name: 'Join Waitlist' })).toBeTruthy();

    await waitFor(() => expect(api.to('POST', '/api/analytics')).toHaveLength(1));
    expect(api.to('POST', '/api/analytics')[0]!.body).toEqual({
      events: [
        {
          type: 'waitlist_signup',
          charity_id: 'ocean',
          charity_name: 'Ocean Friends',
          size: 'L',
          shirt_id: 'scan-me-maybe',
          shirt_name: 'Scan Me Maybe',
        },
      ],
    });
  });

  it('keeps everything typed when joining fails', async () => {
    fakeApi({ 'POST /api/waitlist': { status: 500, json: { error: 'boom' } } });
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'S' }));
    await chooseCharity(user, 'Books for All');
    await user.type(screen.getByLabelText('Your Name'), 'Grace');
    await user.type(screen.getByLabelText('Email Address'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Join Waitlist' }));

    await expectToast('Error Joining Waitlist', 'Something went wrong. Please try again.');
    expect(screen.getByLabelText<HTMLInputElement>('Your Name').value).toBe('Grace');
    expect(screen.getByLabelText<HTMLInputElement>('Email Address').value).toBe('grace@example.com');
    expect(screen.getByRole('button', { name: 'S' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('chosen-charity')).toBeTruthy();
  });

  it('cannot be sent while the charities load', () => {
    fakeApi({});
    renderForm({ charities: undefined, charitiesLoading: true });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Join Waitlist' }).disabled).toBe(true);
    expect(screen.getByPlaceholderText('Loading charities...')).toBeTruthy();
  });

  it('says so when there is no charity to choose', () => {
    fakeApi({});
    renderForm({ charities: [] });
    expect(screen.getByText('No charities available at the moment. Please try again later.')).toBeTruthy();
  });
});
