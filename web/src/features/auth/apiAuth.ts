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
