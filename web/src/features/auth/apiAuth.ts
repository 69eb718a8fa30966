import type { ApiClient } from '../../shared/api';
import { appEvents } from '../../shared/events';
import { clearAuthKey, getAuthKey } from '../../shared/session/authKey';

/** Signs requests with the auth key and turns "login needed" replies into the login dialog. */
export function installAuthInterceptors(client: ApiClient): () => void {
  const removeRequest = client.interceptors.request.use((request) => {
    const key = getAuthKey();
    if (key) request.headers.Authorization = `Bearer ${key}`;
    return request;
  });
  const removeResponse = client.interceptors.response.use((response, request) => {
    if (response.status === 401) {
      // A key the server refuses is expired or revoked: drop it so the app shows the visitor view.
      if (request.headers.Authorization) clearAuthKey();
      appEvents.emit('need_user');
    }
    return response;
  });
  return () => {
    removeRequest();
    removeResponse();
  };
}

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
