import { api } from '../shared/api';
import { appEvents } from '../shared/events';
import { reconnectSocket, setRealtimeAuth } from '../shared/socket';
import { installAuthInterceptors } from '../features/auth';
import { consumeAuthKeyParam, getAuthKey } from '../shared/session/authKey';
import { installErrorReporter } from '../features/errors';
import { installPwa } from '../features/push';

/** Wires features into the shared services. Returns false when the page is reloading instead. */
export function bootstrap(): boolean {
  if (consumeAuthKeyParam()) return false;
  installErrorReporter(api);
  installAuthInterceptors(api);
  setRealtimeAuth(getAuthKey);
  appEvents.on('auth_changed', reconnectSocket);
  installPwa(
    (listener) => appEvents.on('auth_changed', listener),
    () => getAuthKey() !== null,
  );
  return true;
}
