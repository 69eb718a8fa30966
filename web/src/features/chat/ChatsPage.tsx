import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { CHAT_BESIDE_LIST_MIN_PX, CHAT_ROW_NO_MESSAGES_TEXT, CHAT_WINDOW_EDGE_GAP_PX, CHAT_WINDOW_WIDTH_PX, CHATS_LOGIN_TEXT, CHATS_TITLE, NO_CHATS_TEXT } from './constants';
import { useMediaQuery } from '../../shared/hooks/useMediaQuery';
import { appendNewById, useCursorPages } from '../../shared/hooks/useCursorPages';
import { useLoadMoreOnScroll } from '../../shared/hooks/useLoadMoreOnScroll';
import { relativeTime } from '../../shared/relativeTime';
import { Avatar } from '../../shared/ui/Avatar';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { Spinner } from '../../shared/ui/Spinner';
import { BellOffIcon } from '../../shared/ui/icons';
import { RequireUser } from '../../shared/session/RequireUser';
import { withheldLabel } from '../../shared/entities/memberTypes';
import { updateCurrentUser } from '../../shared/session/currentUser';
import type { User } from '../../shared/entities/user';
import { useChatKinds } from '../../shared/chat/kinds';
import type { InboxMessage, Session } from '../../shared/chat/types';
import { useChatWindow } from '../../shared/chat/chatContext';
import { lookupSession } from '../../shared/chat/lookups';
import { useUserName } from '../../shared/chat/UserName';
import { NotificationsControl } from '../push';
import { fetchUserChats } from './chatApi';
import { messagePreview, sentAt } from './messages';
import { isMuted } from './rules';
import { chatterId } from './tabTitle';
import { useSessionUpdates } from './sessionUpdates';
import { useLastMessageUpdates } from './useMessageChanges';
import { useLiveBadges } from './useUnseenSync';

const BESIDE_QUERY = `(min-width: ${CHAT_BESIDE_LIST_MIN_PX}px)`;

/** /chats: the user's sessions, newest activity first. */
export function ChatsPage() {
  const { windowShown } = useChatWindow();
  const roomy = useMediaQuery(BESIDE_QUERY);
  // On a wide screen the open chat sits beside the list: the list keeps clear of its column.
  const beside = windowShown && roomy;
  return (
    <div
      className={`max-w-2xl px-4 py-6 sm:py-10 ${beside ? '' : 'mx-auto'}`}
      style={beside ? { marginRight: CHAT_WINDOW_WIDTH_PX + 2 * CHAT_WINDOW_EDGE_GAP_PX } : undefined}
      data-chat-beside={beside || undefined}
    >
      <h1 className="mb-5 text-2xl font-bold tracking-tight">{CHATS_TITLE}</h1>
      <RequireUser loginMessage={CHATS_LOGIN_TEXT}>
        {(user) => (
          <>
            <div className="mb-5">
              <NotificationsControl />
            </div>
            <OpenLinkedChat />
            <ChatList user={user} />
          </>
        )}
      </RequireUser>
    </div>
  );
}

/**
 * A chat listed while its news was looked up: by a page read before that news was counted,
 * so the counts read after it win (they only grow until the chat is read).
 */
function newerCounts(listed: Session, found: Session, news: InboxMessage): Session {
  const newest = listed.last_message && listed.last_message.created_at > news.created_at ? listed.last_message : news;
  return {
    ...listed,
    unseen_count: Math.max(listed.unseen_count, found.unseen_count),
    mention_count: Math.max(listed.mention_count ?? 0, found.mention_count ?? 0),
    updated_at: Math.max(listed.updated_at, newest.created_at),
    last_message: newest,
  };
}

/** `/chats?session_id=...` (a notification's link) opens that chat over the list. */
function OpenLinkedChat() {
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('session_id');
  const { openChat } = useChatWindow();
  useEffect(() => {
    if (!sessionId) return;
    setParams({}, { replace: true });
    void lookupSession(sessionId).then((session) => {
      if (session) openChat({ title: session.title, image: session.image, sessions: [session] });
    });
  }, [sessionId, setParams, openChat]);
  return null;
}

function ChatList({ user }: { user: User }) {
  const chats = useCursorPages(user._id, (cursor) =>
    fetchUserChats(cursor).then((reply) => {
      // The first page resets the server's count; the Chats dot follows.
      if (!cursor) updateCurrentUser((current) => ({ ...current, data: { ...current.data, notifications_unseen_count: 0 } }));
      return { items: reply.sessions, cursor: reply.cursor, hasMore: reply.has_more };
    }),
    appendNewById,
  );
  useLoadMoreOnScroll(chats.hasMore && !chats.loading, chats.loadMore);
  useSessionUpdates(chats.setItems);
  useLastMessageUpdates(chats.setItems);
  const { openChat } = useChatWindow();
  // News moves a chat to the top with its badge; a chat new to the list comes from the server.
  useLiveBadges(chats.items, chats.setItems, true, (news) => {
    void lookupSession(news.dest_session_id).then((found) => {
      if (!found) return;
      // A looked-up session has no last message: the one that announced it is the newest.
      chats.setItems((current) => {
        const listed = current.find((entry) => entry._id === found._id);
        return [listed ? newerCounts(listed, found, news) : { ...found, last_message: news }, ...current.filter((entry) => entry !== listed)];
      });
    });
  });

  // Opening a chat reads it: its badge goes at once rather than on the next visit.
  const open = (session: Session) => {
    chats.setItems((current) => current.map((entry) => (entry._id === session._id ? { ...entry, unseen_count: 0, mention_count: 0 } : entry)));
    openChat({ title: session.title, image: session.image, sessions: [session] });
  };

  if (chats.items.length === 0) {
    return chats.loading ? <Loading /> : <EmptyState icon="💬" title={NO_CHATS_TEXT} />;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200">
        {chats.items.map((session) => (
          <li key={session._id}>
            <ChatRow session={session} meId={user._id} onOpen={() => open(session)} />
          </li>
        ))}
      </ul>
      {chats.loading && (
        <div className="flex justify-center py-4">
          <Spinner className="size-5 text-slate-500" />
        </div>
      )}
    </>
  );
}

function ChatRow({ session, meId, onOpen }: { session: Session; meId: string; onOpen: () => void }) {
  const tabTitle = useUserName(chatterId(session, meId));
  const unseen = session.unseen_count;
  const mentions = session.mention_count ?? 0;
  const muted = isMuted(session.notification_flag);
  const kinds = useChatKinds();
  const conversation = kinds.conversationKind(session);
  const last = session.last_message;
  // A message its kind dates itself (a WhatsApp customer's, arrived late) dates the row as its bubble does.
  const lastKind = last && kinds.messageKind(last.type);
  const at = last && lastKind?.sentAt ? sentAt(last, lastKind) : session.updated_at;
  return (
    <button type="button" onClick={onOpen} data-testid="chat-row" className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-slate-50">
      <Avatar name={session.title} image={session.image} size={48} />
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline gap-2">
          <span className="line-clamp-2 min-w-0 font-semibold break-words text-slate-900">{conversation ? conversation.title(session) : session.title}</span>
          {conversation && <conversation.Mark className="size-4 self-center" />}
          {tabTitle && <span className="shrink-0 rounded-full bg-brand-50 px-2 text-xs font-medium text-brand-800">{tabTitle}</span>}
          <span className="ml-auto shrink-0 text-xs text-slate-500">{relativeTime(at)}</span>
        </span>
        <span className="flex items-center gap-2">
          {/* Always the newest message, as messengers do, however the row was loaded; a chat one may not read says why. */}
          <span className="truncate text-sm text-slate-500">
            {last ? messagePreview(last, kinds.messageKind(last.type)) : (withheldLabel(session.session_user_type) ?? CHAT_ROW_NO_MESSAGES_TEXT)}
          </span>
          {muted && (
            <span className="ml-auto shrink-0 text-slate-500" role="img" aria-label="Muted" data-testid="chat-row-muted">
              <BellOffIcon className="size-4" />
            </span>
          )}
          {/* Mentions of the viewer have a mark of their own, muted or not (muted means "only mentions"). */}
          {mentions > 0 && (
            <span
              aria-label={`${mentions} unread ${mentions === 1 ? 'mention' : 'mentions'}`}
              data-testid="chat-row-mentions"
              className={`shrink-0 rounded-full bg-amber-400 px-1.5 py-0.5 text-xs font-bold text-amber-950 ${muted ? '' : 'ml-auto'}`}
            >
              @{mentions > 1 ? ` ${mentions}` : ''}
            </span>
          )}
          {/* A muted chat's count is news to read some time, not an alarm: grey, not red. */}
          {unseen > 0 && (
            <span
              aria-label={`${unseen} unseen`}
              className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${muted ? 'bg-slate-200 text-slate-700' : `${mentions > 0 ? '' : 'ml-auto'} bg-red-600 text-white`}`}
            >
              {unseen}
            </span>
          )}
        </span>
      </span>
    </button>
  );
}
