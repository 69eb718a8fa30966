import { useEffect, useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import { JUMP_TO_PRESENT_TEXT, NEW_MESSAGES_TEXT, NO_MESSAGES_TEXT } from './constants';
import { Loading } from '../../shared/ui/Loading';
import { Spinner } from '../../shared/ui/Spinner';
import { ArrowDownIcon } from '../../shared/ui/icons';
import { useChatKinds, type MessageListOptions } from '../../shared/chat/kinds';
import type { ChatMessage } from '../../shared/chat/types';
import { MessageBubble, type MessageAction } from './MessageBubble';
import { HIGHLIGHT_MS } from './jumps';
import { isSameDay, sentAt } from './messages';
import type { ChatSessionState } from './useChatSession';

/** Within this distance of the bottom the list follows new messages; further up it stays put. */
const STICK_TO_BOTTOM_PX = 80;
/** Scrolling this close to the top loads the older page (to the bottom, the newer one of a stretch short of the present). */
const LOAD_OLDER_AT_PX = 40;
/** The first unread message shows this far below the list's top, under its divider. */
const UNREAD_MARGIN_PX = 8;

const dayFormat = new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/** `messages`, `senderOf`, `quoteOf`: as the conversation's kind has them (see ConversationKind). */
interface MessageListProps extends MessageListOptions {
  chat: ChatSessionState;
  meId: string | null;
  /** Whether the viewer may see delivery details of others' messages. */
  moderator: boolean;
  onInfo: (message: ChatMessage) => void;
  /** Offers "Reply" on each message; absent for a viewer who may not write. */
  onReply?: (message: ChatMessage) => void;
  /** Reactions to each message the server holds (not a notice): choosing one; absent for a viewer who may not react. */
  onReact?: (message: ChatMessage, emoji: string) => void;
  /** The picker of every reaction, for a message. */
  onPickReaction?: (message: ChatMessage) => void;
  /** Who reacted to a message (with this emoji first, or null for all); absent where messages take no reactions. */
  onShowReactions?: (message: ChatMessage, emoji: string | null) => void;
  /** What else the viewer may do with each message (edit, delete, pin). */
  actionsOf?: (message: ChatMessage) => MessageAction[];
}

export function MessageList({ chat, meId, moderator, onInfo, messages, senderOf, quoteOf, onReply, onReact, onPickReaction, onShowReactions, actionsOf }: MessageListProps) {
  const kinds = useChatKinds();
  // Days by when each message was sent, as its time says (a late WhatsApp message under its own day).
  const dayOf = (message: ChatMessage) => sentAt(message, kinds.messageKind(message.type));
  const box = useRef<HTMLDivElement>(null);
  const position = useRef({ height: 0, top: 0, atBottom: true, first: messages[0]?.created_at });

  // Older messages go in above: keep what the reader looks at in place. New ones below: follow if at the bottom.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const before = position.current;
    const first = messages[0]?.created_at;
    if (first !== before.first && before.height > 0 && !before.atBottom) {
      element.scrollTop = before.top + (element.scrollHeight - before.height);
    } else if (before.atBottom) {
      element.scrollTop = element.scrollHeight;
    }
    position.current = { ...before, height: element.scrollHeight, top: element.scrollTop, first };
  }, [messages, chat.typingName]);

  // Where the chat opened or jumped to: its first unread message at the top under the divider,
  // a message asked for in the middle (marked a moment), or the newest at the bottom.
  // A message jumped to is marked until its jump's mark has faded.
  const [faded, setFaded] = useState<number | null>(null);
  const marked = chat.anchor?.kind === 'message' && chat.anchor.jump !== faded ? chat.anchor : null;
  const highlighted = marked?.createdAt ?? null;
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    const anchor = chat.anchor;
    if (!element || !anchor) return;
    const target = element.querySelector(`[data-created-at="${anchor.createdAt}"]`);
    if (anchor.kind === 'present' || !target) {
      element.scrollTop = element.scrollHeight;
    } else {
      const within = target.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
      const centred = within - (element.clientHeight - target.clientHeight) / 2;
      element.scrollTop = anchor.kind === 'unread' ? within - UNREAD_MARGIN_PX : centred;
    }
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    position.current = { ...position.current, height: element.scrollHeight, top: element.scrollTop, atBottom };
    setAwayFromBottom(!atBottom);
  }, [chat.anchor]);
  useEffect(() => {
    if (marked === null) return undefined;
    const timer = setTimeout(() => setFaded(marked.jump), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [marked]);

  // Images and link previews grow the list after it was drawn: a reader at the bottom stays there.
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    const inner = content.current;
    if (!element || !inner || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      if (!position.current.atBottom) return;
      element.scrollTop = element.scrollHeight;
      position.current = { ...position.current, height: element.scrollHeight, top: element.scrollTop };
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const onScroll = ({ currentTarget: element }: UIEvent<HTMLDivElement>) => {
    const before = position.current;
    // Only the reader moving up leaves the bottom: content that grew before this event was
    // delivered (an image that loaded) leaves the reader where they were, at the bottom.
    const movedUp = element.scrollTop < before.top - 1;
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    position.current = {
      ...before,
      height: element.scrollHeight,
      top: element.scrollTop,
      atBottom: nearBottom || (before.atBottom && !movedUp),
    };
    setAwayFromBottom(!position.current.atBottom);
    if (element.scrollTop < LOAD_OLDER_AT_PX) chat.loadOlder();
    if (element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_OLDER_AT_PX) chat.loadNewer();
  };

  const toPresent = () => {
    const element = box.current;
    if (chat.hasNewer || !element) {
      chat.toPresent();
      return;
    }
    element.scrollTop = element.scrollHeight;
    position.current = { ...position.current, height: element.scrollHeight, top: element.scrollTop, atBottom: true };
    setAwayFromBottom(false);
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div ref={box} onScroll={onScroll} data-testid="message-list" className="min-h-0 flex-1 overflow-y-auto bg-slate-50 px-3 py-3">
        <div ref={content} className="space-y-1.5">
          {chat.loadingOlder && (
            <div className="flex justify-center py-1">
              <Spinner className="size-4 text-slate-500" />
            </div>
          )}
          {chat.loading ? (
            <Loading />
          ) : (
            messages.length === 0 && <p className="py-10 text-center text-sm text-slate-500">{NO_MESSAGES_TEXT}</p>
          )}
          {messages.map((message, index) => {
            const previous = messages[index - 1];
            const own = message.src_id === meId;
            return (
              <div
                key={message.local_id || message.id}
                data-created-at={message.local ? undefined : message.created_at}
                className={highlighted === message.created_at && !message.local ? 'rounded-xl bg-amber-100 ring-2 ring-amber-300 transition-colors' : 'transition-colors'}
              >
                {(!previous || !isSameDay(dayOf(previous), dayOf(message))) && (
                  <p role="separator" className="my-3 text-center text-xs font-medium text-slate-500">
                    {dayFormat.format(dayOf(message))}
                  </p>
                )}
                {message.created_at === chat.unreadFrom && !message.local && (
                  <p role="separator" data-testid="new-messages" className="my-2 flex items-center gap-2 text-xs font-semibold text-red-700">
                    <span className="h-px flex-1 bg-red-300" />
                    {NEW_MESSAGES_TEXT}
                    <span className="h-px flex-1 bg-red-300" />
                  </p>
                )}
                <MessageBubble
                  message={message}
                  own={own}
                  sender={senderOf?.(message) ?? chat.users[message.src_id]}
                  quoted={quoteOf?.(message) ?? null}
                  onReply={onReply && !message.local && !message.deleted_at ? () => onReply(message) : undefined}
                  reactions={
                    onShowReactions && !message.local
                      ? {
                          meId,
                          onReact: onReact && ((emoji) => onReact(message, emoji)),
                          onMore: onPickReaction && (() => onPickReaction(message)),
                          onShowWho: (emoji) => onShowReactions(message, emoji),
                        }
                      : undefined
                  }
                  actions={actionsOf?.(message)}
                  onInfo={!message.local && (own || moderator) ? () => onInfo(message) : null}
                  onRetry={chat.retry}
                />
              </div>
            );
          })}
          {chat.typingName && <p className="px-1 text-xs text-slate-500 italic">{chat.typingName} is typing…</p>}
          {chat.loadingNewer && (
            <div className="flex justify-center py-1">
              <Spinner className="size-4 text-slate-500" />
            </div>
          )}
        </div>
      </div>
      {(awayFromBottom || chat.hasNewer) && (
        <button
          type="button"
          onClick={toPresent}
          className="absolute right-3 bottom-3 flex items-center gap-1 rounded-full bg-white px-3 py-1.5 text-xs font-semibold text-brand-700 shadow-lg ring-1 ring-slate-200 hover:bg-slate-50"
        >
          <ArrowDownIcon className="size-4" />
          {JUMP_TO_PRESENT_TEXT}
        </button>
      )}
    </div>
  );
}
