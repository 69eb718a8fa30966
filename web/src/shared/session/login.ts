import { appEvents } from '../events';

/** The action a visitor started (Chat, Share, '+'), resumed once they logged in. */
let pendingAction: string | null = null;

/**
 * Opens the login dialog. With `resume`, the action of that name (see useResumeAfterLogin)
 * runs once the login succeeds, so the visitor need not start it again.
 */
export function openLogin(resume?: string): void {
  pendingAction = resume ?? null;
  appEvents.emit('do_login');
}

/** The visitor closed the login dialog without logging in: what they started is dropped. */
export function dropPendingAction(): void {
  pendingAction = null;
}

/** Takes the pending action if it is `name`; it runs once. */
export function takePendingAction(name: string): boolean {
  if (pendingAction !== name) return false;
  pendingAction = null;
  return true;
}
