import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { UiProvider } from '../../shared/ui/UiProvider';
import { consumeAuthKeyParam, getAuthKey, pendingAuthKey } from '../../shared/session/authKey';
import { SwitchAccountHost } from './SwitchAccountDialog';

function openLinkOfAnotherAccount() {
  localStorage.setItem('agora.auth_key', 'mine');
  consumeAuthKeyParam('http://agora.test/profile?auth_key=theirs', () => undefined);
  mockFetch(() => ({ body: { user: { _id: 'u1', name: 'Ada' }, guest_user: null } }));
  render(
    <UiProvider>
      <SwitchAccountHost />
    </UiProvider>,
  );
  return screen.getByRole('dialog', { name: 'Switch accounts?' });
}

describe('switching accounts from a link', () => {
  it('asks first, and staying keeps the signed-in account', async () => {
    const dialog = openLinkOfAnotherAccount();
    expect(dialog.textContent).toContain('signs in to a different account');
    // A hasty Enter keeps the account: staying has the focus.
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Stay/));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Stay as Ada' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getAuthKey()).toBe('mine');
    expect(pendingAuthKey()).toBeNull();
  });

  it('switches only when the person says so', async () => {
    openLinkOfAnotherAccount();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Switch account' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getAuthKey()).toBe('theirs');
  });

  it('shows nothing when no link waits', () => {
    render(
      <UiProvider>
        <SwitchAccountHost />
      </UiProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
