import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../shared/session/currentUser';
import { usePushState } from './pushState';
import { syncPushToken } from './pushToken';
import { setChatOpener } from './serviceWorker';

/**
 * Inside the router: sends the subscription for the signed-in user whenever the pair
 * differs from the one remembered (on every app load, after subscribing, after the browser
 * renewed it), and opens the chats the service worker asks for.
 */
export function PushBridge() {
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const { subscription } = usePushState();
  const userId = user?._id ?? null;

  useEffect(() => {
    setChatOpener((url) => void navigate(url));
  }, [navigate]);

  useEffect(() => {
    // A failed call is tried again on the next load; nothing to tell the person now.
    syncPushToken(userId, subscription).catch(() => undefined);
  }, [userId, subscription]);

  return null;
}
