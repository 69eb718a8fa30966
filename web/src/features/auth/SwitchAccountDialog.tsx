import { useState } from 'react';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { dismissPendingAuthKey, pendingAuthKey, switchToPendingAuthKey } from '../../shared/session/authKey';
import { useCurrentUser } from '../../shared/session/currentUser';

/**
 * Asks before a link's `?auth_key=` replaces the account signed in here: someone could
 * otherwise send a link that quietly signs the reader into the sender's account (and have
 * them post or pay there).
 */
export function SwitchAccountHost() {
  const [asking, setAsking] = useState(() => pendingAuthKey() !== null);
  const { user } = useCurrentUser();
  if (!asking) return null;
  const close = (switchAccount: boolean) => {
    if (switchAccount) switchToPendingAuthKey();
    else dismissPendingAuthKey();
    setAsking(false);
  };
  return (
    <ConfirmDialog
      title="Switch accounts?"
      confirmLabel="Switch account"
      cancelLabel={user ? `Stay as ${user.name}` : 'Stay signed in'}
      onConfirm={() => close(true)}
      onCancel={() => close(false)}
      focusCancel
    >
      <p>The link you opened signs in to a different account than the one you use here.</p>
      <p className="mt-2">Only switch if you expected this link to sign you in to another account.</p>
    </ConfirmDialog>
  );
}
