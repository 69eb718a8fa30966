import { useEffect } from 'react';
import { useCurrentUser } from './currentUser';
import { openLogin, takePendingAction } from './login';
import { useLatest } from '../hooks/useLatest';

/**
 * Runs `action` when the visitor logged in through `openLogin(name)`. The component may
 * have been remounted by the login (pages reload for the signed-in viewer): the pending
 * action is kept by name, not by closure, and taken by whichever copy is ready first.
 */
export function useResumeAfterLogin(name: string, ready: boolean, action: () => void): void {
  const latest = useLatest(action);
  useEffect(() => {
    if (ready && takePendingAction(name)) latest.current();
  }, [name, ready, latest]);
}

/**
 * What a button that needs a signed-in user does when pressed (Chat, Share, a new post): runs
 * `action` for a signed-in user; asks a visitor to log in, and runs it once they did, without
 * a second press (the one way every such button resumes what was asked).
 */
export function useSignedInAction(name: string, action: () => void): () => void {
  const { user } = useCurrentUser();
  useResumeAfterLogin(name, Boolean(user), action);
  return () => (user ? action() : openLogin(name));
}
