import { useEffect, type Dispatch, type SetStateAction } from 'react';
import type { Socket } from 'socket.io-client';
import { getSocket } from '../../shared/socket';
import { updateCurrentUser } from '../../shared/session/currentUser';
import type { InboxMessage, Session } from '../../shared/chat/types';
import { deliveredReceipts } from './receipts';
import { isMuted } from './rules';
import type { SessionUpdate } from './sessionUpdates';
import { applySummary, applyToList, onUnseenChange, received, setMuted, type UnseenSummary } from './unseen';
import { useLatest } from '../../shared/hooks/useLatest';

interface UnseenReport {
  notifications_unseen_count?: number;
}

function setDot(count: (current: number) => number): void {
  updateCurrentUser((user) => ({ ...user, data: { ...user.data, notifications_unseen_count: count(user.data.notifications_unseen_count) } }));
}

/**
 * Keeps the side menu's Chats dot while a user is signed in: exact from the server when the
 * socket (re)connects (and when Chats is opened anywhere), raised by others' messages between.
 * Every message of another that reaches this screen is acknowledged as delivered.
 *
 * A message that arrives while the exact count is asked for may be in that count or not (the
 * count may have been read just before it was stored), so the count is asked for once more
 * after such an answer: a message is counted before it is sent to anyone, so the second
 * count holds it. Taking the first count as it is left the dot one short.
 */
export function useUnseenSync(meId: string | null) {
  useEffect(() => {
    if (!meId) return undefined;
    let cancelled = false;
    let open: Socket | null = null;
    let asking = false;
    let arrivedMeanwhile = false;
    const sync = () => {
      if (!open) return;
      asking = true;
      arrivedMeanwhile = false;
      open.emit('unseen', {}, (summary: UnseenSummary | { errors: unknown }) => {
        asking = false;
        if (cancelled || !('notifications_unseen_count' in summary)) return;
        applySummary(summary);
        setDot(() => summary.notifications_unseen_count);
        if (arrivedMeanwhile) sync();
      });
    };
    const onUnseen = (report: UnseenReport) => {
      const count = report.notifications_unseen_count;
      if (typeof count === 'number') setDot(() => count);
    };
    // The user muted or unmuted a chat (on this screen or another): its news raises the dot
    // from now on or no longer, and the dot's count is asked for again, with or without it.
    const onSession = (update: SessionUpdate) => {
      if (typeof update.notification_flag !== 'number') return;
      setMuted(update._id, isMuted(update.notification_flag));
      sync();
    };
    let acknowledge: ((message: InboxMessage) => void) | null = null;
    const onMessage = (message: InboxMessage) => {
      acknowledge?.(message);
      if (!received(message, meId)) return;
      setDot((count) => count + 1);
      if (asking) arrivedMeanwhile = true;
    };
    // Messages of a busy chat arrive several to a frame.
    const onMessages = (messages: InboxMessage[]) => messages.forEach(onMessage);
    const ready = getSocket();
    void ready.then((socket) => {
      if (cancelled) return;
      open = socket;
      acknowledge = deliveredReceipts(socket, meId);
      socket.on('connect', sync);
      socket.on('unseen', onUnseen);
      socket.on('session', onSession);
      socket.on('message', onMessage);
      socket.on('messages', onMessages);
      if (socket.connected) sync();
    });
    return () => {
      cancelled = true;
      void ready.then((socket) => {
        socket.off('connect', sync);
        socket.off('unseen', onUnseen);
        socket.off('session', onSession);
        socket.off('message', onMessage);
        socket.off('messages', onMessages);
      });
    };
  }, [meId]);
}

/**
 * Keeps the unseen badges of shown chats in step with incoming messages. A list ordered
 * by activity also moves a chat with news to the top; `onMissing` hears of a chat it lacks
 * by that chat's newest message.
 */
export function useLiveBadges(
  sessions: Session[],
  setSessions: Dispatch<SetStateAction<Session[]>>,
  byActivity: boolean,
  onMissing?: (message: InboxMessage) => void,
) {
  const latest = useLatest({ sessions, setSessions, onMissing });
  useEffect(
    () =>
      onUnseenChange((change) => {
        const { sessions: shown, setSessions: update, onMissing: missing } = latest.current;
        if (change.kind !== 'viewed' && !shown.some((entry) => entry._id === change.message.dest_session_id)) {
          missing?.(change.message);
          return;
        }
        update((current) => applyToList(current, change, byActivity));
      }),
    [byActivity, latest],
  );
}
