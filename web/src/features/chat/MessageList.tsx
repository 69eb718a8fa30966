import { useEffect, useLayoutEffect, useRef, type UIEvent } from 'react';
import { NO_MESSAGES_TEXT } from './constants';
import { Loading } from '../../shared/ui/Loading';
import { Spinner } from '../../shared/ui/Spinner';
import { useChatKinds, type MessageListOptions } from '../../shared/chat/kinds';
import type { ChatMessage } from '../../shared/chat/types';
import { MessageBubble, type MessageAction } from './MessageBubble';
import { isSameDay, sentAt } from './messages';
import type { ChatSessionState } from './useChatSession';

/** Within this distance of the bottom the list follows new messages; further up it stays put. */
const STICK_TO_BOTTOM_PX = 80;
/** Scrolling this close to the top loads the older page. */
const LOAD_OLDER_AT_PX = 40;

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
    if (element.scrollTop < LOAD_OLDER_AT_PX) chat.loadOlder();
  };

  return (
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
            <div key={message.local_id || message.id} data-message-at={message.local ? undefined : message.created_at}>
              {(!previous || !isSameDay(dayOf(previous), dayOf(message))) && (
                <p role="separator" className="my-3 text-center text-xs font-medium text-slate-500">
                  {dayFormat.format(dayOf(message))}
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
      </div>
    </div>
  );
}
