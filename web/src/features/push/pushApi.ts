import { api } from '../../shared/api';
import { PUSH_OS_TYPE } from './constants';

export interface PushInfo {
  public_key: string;
  os_type: string;
}

export const fetchPushInfo = () => api.get<PushInfo>('/push/info');

/** Stores the browser's subscription (`JSON.stringify(PushSubscription)`) for the caller. */
export const updatePushToken = (pushToken: string) =>
  api.post<{ success: boolean }>('/update_push_token', { push_token: pushToken, os_type: PUSH_OS_TYPE });

/** The VAPID key as `applicationServerKey` wants it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}
