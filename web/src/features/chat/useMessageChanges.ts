import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import type { InboxMessage, Session } from '../../shared/chat/types';
import { fetchPins, pinsAfterUpdate } from './messageChanges';

/** A change to a stored message (an edit, a deletion, a reaction), with the chat's pins when they changed. */
export interface MessageUpdate {
  session_id: string;
  message: InboxMessage;
  pins?: InboxMessage[];
}

/**
 * A chat's pinned messages, the newest pin first: read when it opens, then as `message_update`
 * changes them. Only where pins may be (`pinnable`: a stored group or item chat, not a plug-in's).
 */
export function usePins(sessionId: string, pinnable: boolean) {
  const [pins, setPins] = useState<InboxMessage[]>([]);
  useEffect(() => {
    if (!pinnable) return undefined;
    const controller = new AbortController();
    fetchPins(sessionId, controller.signal)
      .then((reply) => setPins(reply.pins))
      .catch(() => undefined);
    return () => controller.abort();
  }, [sessionId, pinnable]);
  useSocketEvent<MessageUpdate>(
    'message_update',
    (update) => {
      if (update.session_id === sessionId) setPins((current) => pinsAfterUpdate(current, update));
    },
    pinnable,
  );
  return { pins, setPins };
}

/** Chat list rows whose last message changed (edited, deleted) show it as it is now. */
export function useLastMessageUpdates<T extends Session>(setSessions: Dispatch<SetStateAction<T[]>>) {
  useSocketEvent<MessageUpdate>('message_update', ({ message }) =>
    setSessions((current) =>
      current.some((entry) => entry.last_message?.id === message.id)
        ? current.map((entry) => (entry.last_message?.id === message.id ? { ...entry, last_message: { ...entry.last_message, ...message } } : entry))
        : current,
    ),
  );
}
