import { useEffect } from 'react';
import { getSocket } from '../../shared/socket';
import { updateCurrentUser } from '../auth/currentUser';

interface UnseenReport {
  notifications_unseen_count: number;
}

/** Keeps the side menu's Chats dot in step with the server while a user is signed in. */
export function useUnseenSync(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return undefined;
    let cancelled = false;
    const onUnseen = (report: UnseenReport) => {
      updateCurrentUser((user) => ({ ...user, data: { ...user.data, notifications_unseen_count: report.notifications_unseen_count } }));
    };
    const ready = getSocket();
    void ready.then((socket) => {
      if (!cancelled) socket.on('unseen', onUnseen);
    });
    return () => {
      cancelled = true;
      void ready.then((socket) => socket.off('unseen', onUnseen));
    };
  }, [signedIn]);
}
