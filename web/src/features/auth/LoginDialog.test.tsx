import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import { LOGIN_TITLE } from './constants';
import { appEvents } from '../../shared/events';
import { UiProvider } from '../../shared/ui/UiProvider';
import { LoginDialogHost } from './LoginDialog';

const user = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@example.com', data: { notifications_unseen_count: 0 }, created_at: 0 };
const codeSent = { sent_to: 'a**@example.com', otp_length: 6, otp_expires_in: 600 };

function openDialog(answer: (call: FetchCall) => FakeReply | Promise<FakeReply>) {
  const calls = mockFetch((call) => (call.url.pathname === '/user/me' ? { body: { user: null, guest_user: {} } } : answer(call)));
  render(
    <UiProvider>
      <LoginDialogHost />
    </UiProvider>,
  );
  act(() => appEvents.emit('do_login'));
  const loginCalls = () => calls.filter((call) => call.url.pathname === '/api/user/login');
  return { loginCalls, dialog: screen.getByRole('dialog', { name: LOGIN_TITLE }) };
}

describe('login dialog', () => {
  it('opens when the server says a user is needed', () => {
    render(
      <UiProvider>
        <LoginDialogHost />
      </UiProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => appEvents.emit('need_user'));
    expect(screen.getByRole('dialog', { name: LOGIN_TITLE })).toBeTruthy();
  });

  it('signs up a new user by e-mail: identifier, then code, then name, then stores the key', async () => {
    const { loginCalls } = openDialog((call) => {
      const body = call.body as Record<string, string>;
      if (!body.otp) return { body: { require: ['otp'], data: codeSent } };
      if (!body.name) return { body: { require: ['name'] } };
      return { body: { user, allspark_auth_key: 'key-123' } };
    });
    const ui = userEvent.setup();

    await ui.type(screen.getByLabelText('E-mail or phone number'), 'ada@example.com');
    expect(screen.queryByLabelText('Country code')).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('We sent a code to a**@example.com')).toBeTruthy();
    expect(screen.queryByLabelText('Your name')).toBeNull();
    await ui.type(screen.getByLabelText('Code'), '123456');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await ui.type(await screen.findByLabelText('Your name'), 'Ada');
    expect(screen.getByText('Welcome! This is how others will see you.')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Next' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(loginCalls().map((call) => call.body)).toEqual([
      { email_id: 'ada@example.com' },
      { email_id: 'ada@example.com', otp: '123456' },
      { email_id: 'ada@example.com', name: 'Ada', otp: '123456' },
    ]);
    expect(localStorage.getItem('agora.auth_key')).toBe('key-123');
    expect(screen.getByText('Welcome, Ada')).toBeTruthy();
  });

  it('sends a phone number with the chosen country code', async () => {
    const { loginCalls } = openDialog(() => ({ body: { require: ['otp'], data: codeSent } }));
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('E-mail or phone number'), '0612345678');
    await ui.selectOptions(screen.getByLabelText('Country code'), '44');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('Code');
    expect(screen.queryByLabelText('Your name')).toBeNull();
    expect(loginCalls()[0]?.body).toEqual({ phone_number: '+44612345678' });
  });

  it('shows a wrong code next to the code field and other errors in the popup', async () => {
    openDialog((call) => {
      const body = call.body as Record<string, string>;
      if (!body.otp) return { body: { require: ['otp'], data: codeSent } };
      return { status: 400, body: { errors: { otp: 'Wrong code, 4 tries left', account: 'Locked soon' } } };
    });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('E-mail or phone number'), 'ada@example.com');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await ui.type(await screen.findByLabelText('Code'), '000000');
    await ui.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Wrong code, 4 tries left')).toBeTruthy();
    const popup = screen.getByRole('dialog', { name: 'Sorry! Error occurred' });
    expect(popup.textContent).toContain('account: Locked soon');
  });

  it('keeps the code when the server still needs a name', async () => {
    const { loginCalls } = openDialog((call) => {
      const body = call.body as Record<string, string>;
      if (!body.otp) return { body: { require: ['otp'], data: codeSent } };
      if (!body.name) return { body: { require: ['name'] } };
      return { body: { user, allspark_auth_key: 'key' } };
    });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('E-mail or phone number'), 'ada@example.com');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await ui.type(await screen.findByLabelText('Code'), '123456');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await ui.type(await screen.findByLabelText('Your name'), 'Ada');
    await ui.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(loginCalls()[2]?.body).toEqual({ email_id: 'ada@example.com', name: 'Ada', otp: '123456' });
  });

  it('sends once however often Next is pressed while a request runs', async () => {
    let answer!: () => void;
    const { loginCalls } = openDialog(
      () => new Promise((resolve) => (answer = () => resolve({ body: { require: ['otp'], data: codeSent } }))),
    );
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('E-mail or phone number'), 'ada@example.com');
    const form = screen.getByRole('button', { name: 'Next' }).closest('form')!;
    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await waitFor(() => expect(loginCalls()).toHaveLength(1));
    act(() => answer());
    await screen.findByLabelText('Code');
    expect(loginCalls()).toHaveLength(1);
  });

  it('asks for an identifier before calling the server', async () => {
    const { loginCalls } = openDialog(() => ({ body: {} }));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Enter your e-mail address or phone number')).toBeTruthy();
    expect(loginCalls()).toHaveLength(0);
  });
});
