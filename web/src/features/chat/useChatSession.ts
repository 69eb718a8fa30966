import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { TYPING_IDLE_MS, TYPING_SHOWN_MS, TYPING_THROTTLE_MS } from './constants';
import { getSocket } from '../../shared/socket';
import { useUi } from '../../shared/ui/uiContext';
import type { ChatMessage, ChatUser, InboxMessage, MessageDraft, Session } from '../../shared/chat/types';
import { useChatKinds } from '../../shared/chat/kinds';
import { lookupSession, lookupUser } from '../../shared/chat/lookups';
import { fetchAround, fetchMessages, fetchNewer, sendMessage, type MessagesPage } from './chatApi';
import { AT_PRESENT, firstUnreadAt, newerOf, newestReachingUnread, type Anchor, type Newer } from './jumps';
import { latestServerTime, mergeMessages, outgoingMessage, pollIntervalMs, replaceMessage } from './messages';
import { raiseOwnStatuses, type ReceiptStatus } from './receipts';
import { Outbox, type OutboxEvent } from './outbox';
import { showing } from './unseen';
import { useLatest } from '../../shared/hooks/useLatest';
import { applyReactions, chosenReaction, sendReaction, withReaction, type ReactionMap, type ReactionsUpdate } from './reactions';

interface StatusReport {
  session_id: string;
  created_at: number;
  status: ReceiptStatus;
  user_id: string;
}

interface MessageUpdate {
  session_id: string;
  message: InboxMessage;
}

interface TypingReport {
  session_id: string;
  user_id: string;
  name: string;
}

/**
 * One session's messages: the newest page, older pages on demand, live updates from the
 * socket (or polling while there is none), sending through the outbox, and read receipts.
 * `onSession` receives the session's changes (a dummy that became real); other server updates
 * reach the window through useSessionUpdates.
 *
 * A chat opens at its first unread message when it has unseen ones (`unreadFrom`, read back
 * far enough to reach it), or at `openAt` (a message's created_at) when given; `jumpTo` moves
 * it to another message later. Opened at a message, it shows a stretch of the chat that may
 * not reach the present (`hasNewer`): newer pages load on demand, and `toPresent` goes back
 * to the newest page. Meanwhile live messages are left to that page, so none is shown after
 * a gap.
 */
export function useChatSession(session: Session, meId: string | null, visible: boolean, onSession: (session: Session) => void, openAt?: number) {
  const ui = useUi();
  const kinds = useChatKinds();
  const sessionId = session._id;
  const isDummy = session.is_dummy;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [users, setUsers] = useState<Record<string, ChatUser>>({});
  const [loading, setLoading] = useState(!isDummy);
  const [older, setOlder] = useState({ hasMore: false, before: null as number | null, loading: false });
  const [socket, setSocket] = useState<Socket | null>(null);
  const [connected, setConnected] = useState(false);
  const [typingName, setTypingName] = useState<string | null>(null);
  const [newer, setNewer] = useState<Newer>(AT_PRESENT);
  const [anchor, setAnchor] = useState<Anchor | null>(null);
  const [unreadFrom, setUnreadFrom] = useState<number | null>(null);
  // As the chat opened: reading it makes the count 0 at once.
  const [unseenAtOpen] = useState(session.unseen_count);
  const detached = useLatest(newer.hasMore);
  // Each stretch of the chat loaded anew (opened, jumped, back to the present) is a view: pages
  // asked for by an earlier one are not shown in a later one.
  const view = useRef(0);
  const jumps = useRef(0);

  const latest = useLatest({ session, onSession, ui });
  const newest = latestServerTime(messages);
  const newestShown = useLatest(newest);
  const shown = useLatest(messages);

  const addPage = useCallback((page: MessagesPage) => {
    setMessages((current) => mergeMessages(current, page.inbox_messages));
    setUsers((current) => ({ ...current, ...page.refs?.users }));
  }, []);

  /** Shows `page`, with what is shown (`keep`) or instead of it (messages being sent from here stay). */
  const showStretch = useCallback((page: MessagesPage, at: Omit<Anchor, 'jump'> | null, keep = false) => {
    setMessages((current) => mergeMessages(keep ? current : current.filter((message) => message.local), page.inbox_messages));
    setUsers((current) => ({ ...current, ...page.refs?.users }));
    setOlder({ hasMore: page.has_more, before: page.next_less_than_timestamp, loading: false });
    setNewer(newerOf(page));
    if (at) setAnchor({ ...at, jump: ++jumps.current });
  }, []);

  const outbox = useMemo(() => {
    const report = (event: OutboxEvent) => {
      if (event.kind === 'sent') {
        setMessages((current) => mergeMessages(current, [event.message]));
        const { session: now, onSession: changed } = latest.current;
        if (now.is_dummy || event.newSessionCreated) {
          changed({ ...now, is_dummy: false });
          // The stored session knows the viewer's membership (mute, settings) that the dummy lacked.
          void lookupSession(now._id).then((stored) => {
            if (stored) latest.current.onSession(stored);
          });
        }
      } else if (event.kind === 'rejected') {
        setMessages((current) => current.filter((message) => message.local_id !== event.localId));
        latest.current.ui.showError(event.errors);
      } else {
        setMessages((current) => current.map((message) => (message.local_id === event.localId ? { ...message, local: 'failed' } : message)));
      }
    };
    return new Outbox(sendMessage, report);
  }, [latest]);

  // The first page: at `openAt`, or the newest read back to the first unread; again once a
  // dummy session becomes real (merging keeps what is shown).
  const [firstAt] = useState(openAt);
  useEffect(() => {
    if (isDummy) return undefined;
    const controller = new AbortController();
    const { signal } = controller;
    const opening = ++view.current;
    const first =
      firstAt !== undefined
        ? fetchAround(sessionId, firstAt, signal)
        : newestReachingUnread((before) => fetchMessages(sessionId, before === null ? {} : { less_than_timestamp: before }, signal), unseenAtOpen);
    first
      .then((page) => {
        if (view.current !== opening) return;
        const unread = firstAt === undefined ? firstUnreadAt(page.inbox_messages, unseenAtOpen) : null;
        setUnreadFrom(unread);
        const at = firstAt ?? unread;
        showStretch(page, at === null ? null : { createdAt: at, kind: firstAt === undefined ? 'unread' : 'message' }, true);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [sessionId, isDummy, firstAt, unseenAtOpen, showStretch]);

  const loadOlder = useCallback(() => {
    if (!older.hasMore || older.loading || older.before === null) return;
    const loading = view.current;
    setOlder((current) => ({ ...current, loading: true }));
    fetchMessages(sessionId, { less_than_timestamp: older.before })
      .then((page) => {
        if (view.current !== loading) return;
        addPage(page);
        setOlder({ hasMore: page.has_more, before: page.next_less_than_timestamp, loading: false });
      })
      // A failed page stops paging; what is shown stays.
      .catch(() => setOlder((current) => ({ ...current, hasMore: false, loading: false })));
  }, [sessionId, older, addPage]);

  const loadNewer = useCallback(() => {
    if (!newer.hasMore || newer.loading || newer.after === null) return;
    const loading = view.current;
    setNewer((current) => ({ ...current, loading: true }));
    fetchMessages(sessionId, { greater_than_timestamp: newer.after })
      .then((page) => {
        if (view.current !== loading) return;
        addPage(page);
        const last = page.inbox_messages.at(-1)?.created_at ?? null;
        setNewer({ hasMore: page.has_more && last !== null, after: last, loading: false });
      })
      // Tried again when the reader reaches the end once more.
      .catch(() => setNewer((current) => ({ ...current, loading: false })));
  }, [sessionId, newer, addPage]);

  /** Shows the chat at a message: scrolled to where it is shown, else the page around it. */
  const jumpTo = useCallback(
    (createdAt: number) => {
      if (shown.current.some((message) => !message.local && message.created_at === createdAt)) {
        setAnchor({ createdAt, kind: 'message', jump: ++jumps.current });
        return;
      }
      const loading = ++view.current;
      fetchAround(sessionId, createdAt)
        .then((page) => {
          if (view.current === loading) showStretch(page, { createdAt, kind: 'message' });
        })
        .catch((error: unknown) => latest.current.ui.showError(error));
    },
    [sessionId, showStretch, latest, shown],
  );

  /** Back to the newest messages (from a stretch that does not reach them, the newest page read again). */
  const toPresent = useCallback(() => {
    if (!detached.current) {
      setAnchor({ createdAt: 0, kind: 'present', jump: ++jumps.current });
      return;
    }
    const loading = ++view.current;
    fetchMessages(sessionId)
      .then((page) => {
        if (view.current === loading) showStretch({ ...page, has_more_after: false }, { createdAt: 0, kind: 'present' });
      })
      .catch((error: unknown) => latest.current.ui.showError(error));
  }, [sessionId, showStretch, detached, latest]);

  // Live updates. Joining again on every (re)connect, since the server forgets rooms with the connection.
  // Polling stopped when the socket came back and the room is heard only once joined: after a
  // reconnect (to whichever edge), what was stored after the newest message shown at that moment
  // is fetched once the join is answered. Not from the newest shown when the answer comes: the
  // room's new messages may already have arrived by then, after the gap. Some may even come
  // before the connect (the server enters the socket's rooms before it answers it):
  // socket.io-client hands them over right before "connect", in the same call, so they are not
  // rendered yet when join reads newestShown, and cannot hide the gap either.
  useEffect(() => {
    let open: Socket | null = null;
    let cancelled = false;
    let joinedBefore = false;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    const join = () => {
      const rejoining = joinedBefore;
      const shownBefore = newestShown.current ?? 0;
      joinedBefore = true;
      if (!isDummy) {
        open?.emit('join', { session_id: sessionId }, (reply: { ok?: boolean }) => {
          if (rejoining && reply?.ok && !cancelled && !detached.current) void fetchNewer(sessionId, shownBefore, addPage).catch(() => undefined);
        });
      }
      setConnected(true);
      void outbox.retryAll();
    };
    const onDisconnect = () => setConnected(false);
    const onMessages = (incoming: InboxMessage[]) => {
      const mine = incoming.filter((message) => message.dest_session_id === sessionId);
      // A stretch short of the present takes them with its newer pages, after what it shows.
      if (mine.length === 0 || detached.current) return;
      setMessages((current) =>
        mine.reduce((list, message) => raiseOwnStatuses(list, meId, message.src_id, message.created_at, 'read'), mergeMessages(current, mine)),
      );
      if (mine.some((message) => message.src_id !== meId)) setTypingName(null);
    };
    // A busy chat's messages share frames (`messages`); a quiet one's come one by one.
    const onMessage = (message: InboxMessage) => onMessages([message]);
    const onStatus = (report: StatusReport) => {
      if (report.session_id !== sessionId) return;
      setMessages((current) => raiseOwnStatuses(current, meId, report.user_id, report.created_at, report.status));
    };
    // A reaction (to a WhatsApp message), an edit or a deletion changes it.
    const onMessageUpdate = (update: MessageUpdate) => {
      if (update.session_id === sessionId) setMessages((current) => replaceMessage(current, update.message));
    };
    // A tick's reactions in the chat, for the tabs showing it.
    const onReactions = (update: ReactionsUpdate) => {
      if (update.session_id === sessionId) setMessages((current) => applyReactions(current, update.messages));
    };
    const onTyping = (report: TypingReport) => {
      if (report.session_id !== sessionId || report.user_id === meId) return;
      setTypingName(report.name);
      clearTimeout(typingTimer);
      typingTimer = setTimeout(() => setTypingName(null), TYPING_SHOWN_MS);
    };
    void getSocket().then((ready) => {
      if (cancelled) return;
      open = ready;
      setSocket(ready);
      ready.on('connect', join);
      ready.on('disconnect', onDisconnect);
      ready.on('message', onMessage);
      ready.on('messages', onMessages);
      ready.on('message_status', onStatus);
      ready.on('message_update', onMessageUpdate);
      ready.on('typing', onTyping);
      ready.on('reactions', onReactions);
      if (ready.connected) join();
    });
    return () => {
      cancelled = true;
      clearTimeout(typingTimer);
      if (!open) return;
      open.off('connect', join);
      open.off('disconnect', onDisconnect);
      open.off('message', onMessage);
      open.off('messages', onMessages);
      open.off('message_status', onStatus);
      open.off('message_update', onMessageUpdate);
      open.off('typing', onTyping);
      open.off('reactions', onReactions);
      // The server keeps the socket in the rooms of chats its user follows (for their badges).
      if (!isDummy) open.emit('leave', { session_id: sessionId });
    };
  }, [sessionId, isDummy, meId, outbox, addPage, newestShown, detached]);

  // Messages of a chat on screen are read as they come: they raise no badge and no red dot.
  useEffect(() => (visible && !isDummy ? showing(sessionId) : undefined), [visible, isDummy, sessionId]);

  // Polling stands in for the socket while it is down, and for a dummy session that has no room yet.
  const [pollRound, setPollRound] = useState(0);
  useEffect(() => {
    if ((connected && !isDummy) || newer.hasMore) return undefined;
    const timer = setTimeout(() => {
      fetchMessages(sessionId, { greater_than_timestamp: newest ?? 0 })
        .then(addPage)
        .catch(() => undefined)
        .finally(() => setPollRound((round) => round + 1));
    }, pollIntervalMs(newest));
    return () => clearTimeout(timer);
  }, [connected, isDummy, sessionId, newest, pollRound, addPage, newer.hasMore]);

  // Tell the others how far this viewer got: read while the window shows, else just delivered.
  const lastFromOthers = [...messages].reverse().find((message) => !message.local && message.src_id !== meId)?.created_at;
  const receipted = useRef(new Set<string>());
  useEffect(() => {
    if (!socket || !connected || !meId || lastFromOthers === undefined) return;
    const event = visible ? 'read' : 'delivered';
    const key = `${event}:${lastFromOthers}`;
    if (receipted.current.has(key)) return;
    receipted.current.add(key);
    socket.emit(event, { session_id: sessionId, created_at: lastFromOthers });
  }, [socket, connected, meId, visible, lastFromOthers, sessionId]);

  // Names for senders the page's refs did not cover (messages that came over the socket).
  // A plug-in's sender who is no user (a WhatsApp customer) is named by its conversation.
  const userSent = messages.filter((message) => kinds.messageKind(message.type)?.senderIsUser !== false);
  const unknownSenders = [...new Set(userSent.map((message) => message.src_id))].filter((id) => !users[id]).join(',');
  useEffect(() => {
    if (!unknownSenders) return;
    for (const id of unknownSenders.split(',')) {
      void lookupUser(id).then((user) => {
        if (user) setUsers((current) => ({ ...current, [id]: user }));
      });
    }
  }, [unknownSenders]);

  // At most one typing signal per throttle window, sent once the typist pauses.
  const typing = useRef<{ lastSent: number; timer?: ReturnType<typeof setTimeout> }>({ lastSent: 0 });
  useEffect(() => () => clearTimeout(typing.current.timer), []);
  const send = useCallback(
    (draft: MessageDraft) => {
      if (!meId) return;
      // A pause that ends in sending is not typing any more.
      clearTimeout(typing.current.timer);
      // What is sent shows after the newest messages.
      if (detached.current) toPresent();
      const { session: now } = latest.current;
      const { local, body } = outgoingMessage(draft, { sessionId: now._id, isDummy: now.is_dummy, senderId: meId });
      setMessages((current) => mergeMessages(current, [local]));
      void outbox.submit(body);
    },
    [meId, outbox, latest, toPresent, detached],
  );

  // A change this viewer made (an edit, a deletion), shown at once: the room's `message_update` follows.
  const changed = useCallback((message: InboxMessage) => setMessages((current) => replaceMessage(current, message)), []);

  const retry = useCallback(() => {
    setMessages((current) => current.map((message) => (message.local === 'failed' ? { ...message, local: 'sending' } : message)));
    void outbox.retryAll();
  }, [outbox]);

  // Shown at once, then as the server answers (or as it was, with the refusal shown). From the
  // message as shown now: a menu or picker opened a while ago may hold an older copy.
  const react = useCallback(
    (message: ChatMessage, emoji: string) => {
      if (!meId) return;
      const before = shown.current.find((known) => known.created_at === message.created_at)?.data.reactions ?? {};
      const chosen = chosenReaction(before, meId, emoji);
      const show = (reactions: ReactionMap) => setMessages((current) => applyReactions(current, [{ created_at: message.created_at, reactions }]));
      show(withReaction(before, meId, chosen));
      sendReaction({ session_id: sessionId, created_at: message.created_at, emoji: chosen }, socket)
        .then(show)
        .catch((error: unknown) => {
          show(before);
          latest.current.ui.showError(error);
        });
    },
    [meId, sessionId, socket, shown, latest],
  );

  const notifyTyping = useCallback(() => {
    const state = typing.current;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      if (!socket?.connected || isDummy || Date.now() - state.lastSent < TYPING_THROTTLE_MS) return;
      state.lastSent = Date.now();
      socket.emit('typing', { session_id: sessionId });
    }, TYPING_IDLE_MS);
  }, [socket, isDummy, sessionId]);

  return {
    messages,
    users,
    loading,
    hasOlder: older.hasMore,
    loadingOlder: older.loading,
    loadOlder,
    hasNewer: newer.hasMore,
    loadingNewer: newer.loading,
    loadNewer,
    jumpTo,
    toPresent,
    anchor,
    unreadFrom,
    typingName,
    send,
    retry,
    notifyTyping,
    react,
    changed,
  };
}

export type ChatSessionState = ReturnType<typeof useChatSession>;
