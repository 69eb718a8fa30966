import { useEffect, useRef } from 'react';
import { takePendingAction } from './login';

/**
 * Runs `action` when the visitor logged in through `openLogin(name)`. The component may
 * have been remounted by the login (pages reload for the signed-in viewer): the pending
 * action is kept by name, not by closure, and taken by whichever copy is ready first.
 */
export function useResumeAfterLogin(name: string, ready: boolean, action: () => void): void {
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => {
    if (ready && takePendingAction(name)) latest.current();
  }, [name, ready]);
}
