import { useEffect, useRef, useState, type Dispatch, type SetStateAction, type KeyboardEvent, type MouseEvent, type TouchEvent } from 'react';
import { CHAT_FULL_SCREEN_BELOW_PX, CHAT_WINDOW_MAX_HEIGHT_PX, CHAT_WINDOW_WIDTH_PX, NO_ITEM_CHATS_TEXT, POST_DELETED_TEXT } from './constants';
import { MEMBER_TYPES } from '../../shared/constants';
import { useMediaQuery } from '../../shared/hooks/useMediaQuery';
import { swipeDirection, type TouchSample } from '../../shared/swipe';
import { Avatar } from '../../shared/ui/Avatar';
import { EmptyState } from '../../shared/ui/EmptyState';
import { CloseIcon, MinimizeIcon, SearchIcon, SettingsIcon } from '../../shared/ui/icons';
import { useCurrentUser } from '../../shared/session/currentUser';
import { useChatKinds, type MessageListOptions } from '../../shared/chat/kinds';
import type { ChatMessage, Session } from '../../shared/chat/types';
import type { ChatWindowRequest } from '../../shared/chat/chatContext';
import { isModerator } from '../../shared/chat/members';
import { quotedText } from '../../shared/chat/replies';
import { lookupSession } from '../../shared/chat/lookups';
import { useUserName } from '../../shared/chat/UserName';
import { useViewingReport } from './useViewingReport';
import { ChatSearch } from './ChatSearch';
import { ChatSettings } from './ChatSettings';
import { rememberWindowChange } from './chatMemory';
import { Composer } from './Composer';
import { LockButton } from './LockButton';
import { MessageInfoDialog } from './MessageInfoDialog';
import { MessageList } from './MessageList';
import { useMessageTools } from './MessageTools';
import { messagePreview } from './messages';
import { MentionJump } from './MentionJump';
import { MuteButton } from './MuteButton';
import { ReactionPicker } from './ReactionPicker';
import { mayReact } from './reactions';
import { WhoReactedDialog } from './WhoReactedDialog';
import { isChatAbout } from './rules';
import { lastOwnSend, sendableAt } from './slowMode';
import { chatterId } from './tabTitle';
import { useSessionUpdates } from './sessionUpdates';
import { useChatSession } from './useChatSession';
import { useLiveBadges } from './useUnseenSync';

/** Marks the chat window: focus inside it is not what opened it (ChatProvider). */
export const CHAT_WINDOW_ATTRIBUTE = 'data-chat-window';

const WIDE_QUERY = `(min-width: ${CHAT_FULL_SCREEN_BELOW_PX}px)`;
const headerButton = 'rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800';

interface ChatWindowProps {
  request: ChatWindowRequest;
  minimized: boolean;
  onMinimize: () => void;
  onRestore: () => void;
  onClose: () => void;
}

/** The floating chat panel: bottom right on wide screens, the whole screen on narrow ones. */
export function ChatWindow({ request, minimized, onMinimize, onRestore, onClose }: ChatWindowProps) {
  const wide = useMediaQuery(WIDE_QUERY);
  const kinds = useChatKinds();
  const { user } = useCurrentUser();
  const meId = user?._id ?? null;
  const [sessions, setSessions] = useState(request.sessions);
  const [active, setActive] = useState(() => Math.max(0, request.sessions.findIndex((entry) => entry._id === request.activeId)));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // The message the shown chat is to open at: the request's, then each search result picked.
  const [jump, setJump] = useState<Jump | null>(() => (request.at === undefined ? null : { sessionId: request.activeId ?? request.sessions[0]?._id, at: request.at, seq: 0 }));
  const swipeStart = useRef<TouchSample | null>(null);
  const session = sessions[active];
  const conversation = session && kinds.conversationKind(session);
  const showTabs = sessions.some((entry) => chatterId(entry, meId) !== null);
  useLiveBadges(sessions, setSessions, false, (news) => {
    if (!request.itemId || !isChatAbout(news.dest_session_id, request.itemId)) return;
    void lookupSession(news.dest_session_id).then((found) => {
      if (found) setSessions((current) => withNewSessions(current, [found]));
    });
  });
  useSessionUpdates(setSessions);
  useReloadOnceListening(request.reload, setSessions);
  useViewingReport(minimized ? null : (session?._id ?? null));

  const replaceSession = (changed: Session) =>
    setSessions((current) => current.map((entry) => (entry._id === changed._id ? changed : entry)));

  const select = (index: number) => {
    const chosen = Math.max(0, Math.min(sessions.length - 1, index));
    setActive(chosen);
    setSettingsOpen(false);
    setSearchOpen(false);
    // A chat chosen shows its newest (or first unread) messages, whatever was shown before.
    setJump(null);
    rememberWindowChange({ activeId: sessions[chosen]?._id ?? null });
  };

  const title = session?.title || request.title;
  // While minimized no chat of the window shows: others' messages raise their badges.
  const unseen = sessions.reduce((total, entry) => total + entry.unseen_count, 0);
  const image = session?.image || request.image;

  // Escape closes the window, unless something in it took the key for itself (a menu) or a
  // dialog opened over it (message info, the image viewer): that one closes first.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('[aria-modal="true"]')) return;
    onClose();
  };

  // A person's name leads to their profile, which opens behind the window: on a phone the
  // window covers the page, so it gets out of the way (minimized, the chat a tap away).
  const onClick = (event: MouseEvent) => {
    if (!wide && event.target instanceof Element && event.target.closest('[data-profile-link]')) onMinimize();
  };

  const onTouchEnd = (event: TouchEvent) => {
    const start = swipeStart.current;
    const touch = event.changedTouches[0];
    swipeStart.current = null;
    if (!start || !touch || sessions.length < 2) return;
    const direction = swipeDirection(start, { x: touch.clientX, y: touch.clientY, time: event.timeStamp });
    if (direction) select(active + (direction === 'left' ? 1 : -1));
  };

  return (
    <>
      {minimized && (
        <button
          type="button"
          onClick={onRestore}
          aria-label={unseen > 0 ? `Open chat ${title}, ${unseen} unseen` : `Open chat ${title}`}
          className="fixed right-4 bottom-4 z-40 flex max-w-72 items-center gap-2 rounded-full bg-white py-2 pr-4 pl-2 shadow-xl ring-1 ring-slate-200 hover:bg-slate-50"
        >
          <Avatar name={title} image={image} size={32} />
          <span className="truncate text-sm font-semibold">{title}</span>
          {unseen > 0 && (
            <span data-testid="minimized-unseen" className="min-w-5 shrink-0 rounded-full bg-red-600 px-1.5 text-center text-xs leading-5 font-semibold text-white">
              {unseen}
            </span>
          )}
        </button>
      )}
      {/* Kept mounted while minimized, so messages keep arriving (and count as delivered, not read). */}
      <section
      hidden={minimized}
      role="dialog"
      aria-label={`Chat: ${title}`}
      data-testid="chat-window"
      {...{ [CHAT_WINDOW_ATTRIBUTE]: '' }}
      onKeyDown={onKeyDown}
      onClick={onClick}
      style={wide ? { width: CHAT_WINDOW_WIDTH_PX, height: `min(${CHAT_WINDOW_MAX_HEIGHT_PX}px, calc(100dvh - 5rem))` } : undefined}
      className={`fixed z-40 animate-fade-in flex-col overflow-hidden bg-white shadow-2xl ${minimized ? 'hidden' : 'flex'} ${
        // On a phone the whole screen, below the offline notice when it shows (features/push/OfflineNotice).
        wide ? 'right-4 bottom-0 rounded-t-2xl ring-1 ring-slate-200' : 'inset-x-0 top-[var(--offline-notice-height,0px)] bottom-0'
      }`}
    >
      {/* Not a <header>: that is the page's banner landmark, and the page has one already. */}
      <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-2">
        <Avatar name={title} image={image} size={36} />
        <h2 className="flex min-w-0 flex-1 items-center gap-1.5 text-base font-semibold">
          <span className="line-clamp-2 min-w-0 leading-snug break-words">{title}</span>
          {conversation && <conversation.Mark />}
        </h2>
        {/* A plug-in's conversation may be one never made public (a business chat, between the shop and its customer). */}
        {session && (conversation?.mayBePublic ?? true) && <LockButton session={session} onSession={replaceSession} />}
        {session && !session.is_dummy && (
          <button
            type="button"
            aria-label="Search in chat"
            aria-pressed={searchOpen}
            onClick={() => {
              setSearchOpen((open) => !open);
              setSettingsOpen(false);
            }}
            className={headerButton}
          >
            <SearchIcon />
          </button>
        )}
        {session && session.session_user_type !== null && (
          <>
            <MuteButton session={session} />
            <button
              type="button"
              aria-label="Chat settings"
              aria-pressed={settingsOpen}
              onClick={() => {
                setSettingsOpen((open) => !open);
                setSearchOpen(false);
              }}
              className={headerButton}
            >
              <SettingsIcon />
            </button>
          </>
        )}
        <button type="button" aria-label="Minimize chat" onClick={onMinimize} className={headerButton}>
          <MinimizeIcon />
        </button>
        <button type="button" aria-label="Close chat" onClick={onClose} className={headerButton}>
          <CloseIcon />
        </button>
      </div>

      {showTabs && (
        <div role="tablist" aria-label="Chats" className="flex gap-1 overflow-x-auto border-b border-slate-100 px-2 py-1.5">
          {sessions.map((entry, index) => (
            <ChatTab key={entry._id} session={entry} meId={meId} selected={index === active} onSelect={() => select(index)} />
          ))}
        </div>
      )}

      {session?.data.item_deleted && (
        <p role="status" className="border-b border-slate-100 bg-slate-100 px-3 py-2 text-center text-sm text-slate-700">
          {POST_DELETED_TEXT}
        </p>
      )}
      {session && kinds.sessionBars.map((Bar, index) => <Bar key={index} session={session} meId={meId} />)}

      {session ? (
        <div
          className="relative flex min-h-0 flex-1 flex-col"
          onTouchStart={(event) => {
            const touch = event.touches[0];
            if (touch) swipeStart.current = { x: touch.clientX, y: touch.clientY, time: event.timeStamp };
          }}
          onTouchEnd={onTouchEnd}
        >
          {settingsOpen ? (
            <ChatSettings session={session} onSession={replaceSession} onClose={() => setSettingsOpen(false)} />
          ) : (
            <ChatPane
              key={session._id}
              session={session}
              meId={meId}
              visible={!minimized}
              onSession={replaceSession}
              jump={jump?.sessionId === session._id ? jump : null}
            />
          )}
          {searchOpen && !settingsOpen && (
            <ChatSearch
              sessionId={session._id}
              onClose={() => setSearchOpen(false)}
              onPick={(at) => {
                setSearchOpen(false);
                setJump((current) => ({ sessionId: session._id, at, seq: (current?.seq ?? 0) + 1 }));
              }}
            />
          )}
        </div>
      ) : (
        <div className="flex-1 p-4">
          <EmptyState icon="💬" title={NO_ITEM_CHATS_TEXT} />
        </div>
      )}
      </section>
    </>
  );
}

/** The tabs with the sessions not among them yet added; those shown stay as they are (live). */
function withNewSessions(current: Session[], found: Session[]): Session[] {
  const added = found.filter((entry) => !current.some((shown) => shown._id === entry._id));
  return added.length ? [...current, ...added] : current;
}

/**
 * Reads the request's sessions again once the window's live badges listen (their effect runs
 * before this one): the opener's read and the window's first render leave a gap in which a
 * chat that begins is in neither.
 */
function useReloadOnceListening(reload: ChatWindowRequest['reload'], setSessions: Dispatch<SetStateAction<Session[]>>) {
  const first = useRef(reload);
  useEffect(() => {
    let live = true;
    void first.current?.().then((found) => {
      if (!live) return;
      setSessions((current) => withNewSessions(current, found));
    });
    return () => {
      live = false;
    };
  }, [setSessions]);
}

function ChatTab({ session, meId, selected, onSelect }: { session: Session; meId: string | null; selected: boolean; onSelect: () => void }) {
  const otherId = chatterId(session, meId);
  const name = useUserName(otherId);
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      onClick={onSelect}
      className={`flex shrink-0 items-center gap-1.5 rounded-full px-3 py-1 text-sm font-medium ${
        selected ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'
      }`}
    >
      {name ?? session.title}
      {session.unseen_count > 0 && !selected && (
        <span className="rounded-full bg-red-500 px-1.5 text-[11px] font-semibold text-white">{session.unseen_count}</span>
      )}
    </button>
  );
}

/** A message of a chat to show: `seq` counts them, so the same one asked for again is shown again. */
interface Jump {
  sessionId: string | undefined;
  at: number;
  seq: number;
}

/** One session's conversation: messages and composer. */
interface ChatPaneProps {
  session: Session;
  meId: string | null;
  visible: boolean;
  onSession: (session: Session) => void;
  /** The message to show: the first (the window's request) opens the chat at it. */
  jump: Jump | null;
}

function ChatPane({ session, meId, visible, onSession, jump }: ChatPaneProps) {
  const [opening] = useState(jump);
  const chat = useChatSession(session, meId, visible, onSession, opening?.at);
  const { jumpTo } = chat;
  useEffect(() => {
    if (jump && jump.seq !== opening?.seq) jumpTo(jump.at);
  }, [jump, opening, jumpTo]);
  const tools = useMessageTools(session, meId, chat.changed, jumpTo);
  const [info, setInfo] = useState<ChatMessage | null>(null);
  // The message the viewer's next one answers: every kind of chat quotes it the same way.
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const kinds = useChatKinds();
  const conversation = kinds.conversationKind(session);
  const canWrite = meId !== null && session.can_send;
  // Reactions to item and group chats' messages (a plug-in's conversation shows its own, as they are).
  const [picking, setPicking] = useState<ChatMessage | null>(null);
  const [reactors, setReactors] = useState<{ createdAt: number; emoji: string | null } | null>(null);
  const reacts = mayReact(session, meId, conversation !== undefined);
  const reactionsShown = reactors && chat.messages.find((message) => message.created_at === reactors.createdAt)?.data.reactions;
  // Its mentions when the chat opened: reading it zeroes the session's count at once.
  const [mentionCount] = useState(() => session.mention_count ?? 0);
  const preview = (message: ChatMessage) => messagePreview(message, kinds.messageKind(message.type));
  const list = ({ quoteOf, ...options }: MessageListOptions) => (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <MessageList
        chat={chat}
        meId={meId}
        moderator={isModerator(session.session_user_type)}
        onInfo={setInfo}
        onReply={canWrite ? setReplyTo : undefined}
        onReact={reacts ? chat.react : undefined}
        onPickReaction={reacts ? setPicking : undefined}
        onShowReactions={conversation ? undefined : (message, emoji) => setReactors({ createdAt: message.created_at, emoji })}
        actionsOf={tools.actionsOf}
        quoteOf={quoteOf ?? ((message) => quotedText(options.messages, message, preview))}
        {...options}
      />
      <MentionJump messages={options.messages} meId={meId} mentionCount={mentionCount} onOpen={jumpTo} />
    </div>
  );
  const composer = tools.editor || (
    <Composer
      session={session}
      signedIn={meId !== null}
      canSendBanner={session.session_user_type === MEMBER_TYPES.admin}
      onSend={chat.send}
      onTyping={chat.notifyTyping}
      replyTo={replyTo && { created_at: replyTo.created_at, text: preview(replyTo) }}
      onReplyDone={() => setReplyTo(null)}
      meId={meId}
      sendableAt={sendableAt(session, lastOwnSend(chat.messages, meId))}
    />
  );
  return (
    <>
      {tools.bar}
      {conversation ? (
        <conversation.Pane
          session={session}
          canWrite={canWrite}
          messages={chat.messages}
          onSend={chat.send}
          onTyping={chat.notifyTyping}
          replyTo={replyTo}
          onReplyDone={() => setReplyTo(null)}
          list={list}
          composer={composer}
        />
      ) : (
        <>
          {list({ messages: chat.messages })}
          {composer}
        </>
      )}
      {info && <MessageInfoDialog message={info} onClose={() => setInfo(null)} />}
      {picking && meId && (
        <ReactionPicker mine={picking.data.reactions?.[meId]} onPick={(emoji) => chat.react(picking, emoji)} onClose={() => setPicking(null)} />
      )}
      {reactors && reactionsShown && (
        <WhoReactedDialog reactions={reactionsShown} first={reactors.emoji} meId={meId} onClose={() => setReactors(null)} />
      )}
      {tools.dialog}
    </>
  );
}
