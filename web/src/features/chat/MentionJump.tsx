import { useState } from 'react';
import { JUMP_TO_MENTION_LABEL } from './constants';
import type { InboxMessage } from '../../shared/chat/types';
import { unreadMentions } from './mentions';

interface MentionJumpProps {
  messages: Pick<InboxMessage, 'data' | 'src_id' | 'created_at'>[];
  meId: string | null;
  /** The chat's mention count when it opened: its unread mentions are the newest that many. */
  mentionCount: number;
  /** Opens the chat at a message (loading the page around it when it is not shown). */
  onOpen: (createdAt: number) => void;
}

/**
 * The "@" button over a chat's messages while it has mentions of the viewer not yet gone to:
 * each press goes to the oldest of them.
 */
export function MentionJump({ messages, meId, mentionCount, onOpen }: MentionJumpProps) {
  const [visited, setVisited] = useState<number[]>([]);
  const pending = unreadMentions(messages, meId, mentionCount).filter((at) => !visited.includes(at));
  const oldest = pending[0];
  if (oldest === undefined) return null;
  return (
    <div className="pointer-events-none absolute right-3 bottom-3">
      <button
        type="button"
        title={JUMP_TO_MENTION_LABEL}
        data-testid="mention-jump"
        onClick={() => {
          onOpen(oldest);
          setVisited((current) => [...current, oldest]);
        }}
        className="pointer-events-auto relative flex size-10 items-center justify-center rounded-full bg-amber-400 text-lg font-bold text-amber-950 shadow-lg ring-1 ring-amber-500 hover:bg-amber-300"
      >
        @<span className="sr-only"> {JUMP_TO_MENTION_LABEL}, unread mentions: </span>
        <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-[11px] leading-5 font-semibold text-white">{pending.length}</span>
      </button>
    </div>
  );
}
