import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { ChangeEmailForm } from './change-email-form';

const ada = { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null };

function renderForm() {
  signInAs(ada);
  return renderRoute(<ChangeEmailForm user={ada} />);
}

describe('changing one’s email address', () => {
  it('mails a link to the new address and says the address changes only once it is followed', async () => {
    const server = fakeApi({ 'POST /api/user/u-1/email': { status: 202 } });
    const { user } = renderForm();
    expect(screen.getByText(/Your email address is ada@example\.com\./)).toBeTruthy();
    const field = screen.getByLabelText<HTMLInputElement>('New email address');
    await user.type(field, ' countess@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    expect((await screen.findByRole('status')).textContent).toBe(
      'We sent a link to countess@example.com. Your address changes once you open it; until then it stays ada@example.com.',
    );
    expect(server.to('POST', '/api/user/u-1/email').map((request) => request.body)).toEqual([
      { email: 'countess@example.com' },
    ]);
    expect(server.to('POST', '/api/user/u-1/email')[0]!.headers).toMatchObject({ authorization: 'Bearer token-u-1' });
    expect(field.value).toBe('');
  });

  it('shows why the server refused, and keeps what was typed', async () => {
    fakeApi({
      'POST /api/user/u-1/email': { status: 409, json: { error: 'Another account uses this email address' } },
    });
    const { user } = renderForm();
    const field = screen.getByLabelText<HTMLInputElement>('New email address');
    await user.type(field, 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Another account uses this email address');
    expect(field.value).toBe('taken@example.com');
  });

  it('shows the sign-in message of an auth code (a malformed address, too many mails)', async () => {
    fakeApi({
      'POST /api/user/u-1/email': { status: 429, json: { error: 'Too many', code: 'too-many-requests' } },
    });
    const { user } = renderForm();
    await user.type(screen.getByLabelText('New email address'), 'again@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Too many failed attempts. Please try again later.'),
    );
  });

  it('asks for an address before sending anything', async () => {
    const server = fakeApi({});
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your new email address');
    expect(server.requests).toEqual([]);
  });
});
