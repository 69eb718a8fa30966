import { useState } from 'react';
import { useChatKinds } from '../../shared/chat/kinds';
import type { InboxMessage } from '../../shared/chat/types';
import { messagePreview } from './messages';

/**
 * The chat's pinned messages at its top, one at a time, the newest pin first: a tap opens the
 * one shown and shows the next (as Telegram's bar does), so every pin is a few taps away.
 */
export function PinnedBar({ pins, onOpen }: { pins: readonly InboxMessage[]; onOpen: (message: InboxMessage) => void }) {
  const kinds = useChatKinds();
  const [index, setIndex] = useState(0);
  const shown = pins[index % pins.length] as InboxMessage;
  const position = (index % pins.length) + 1;
  return (
    <button
      type="button"
      data-testid="pinned-bar"
      onClick={() => {
        onOpen(shown);
        setIndex(position);
      }}
      aria-label={`Pinned message ${position} of ${pins.length}: ${messagePreview(shown, kinds.messageKind(shown.type))}`}
      className="flex w-full items-center gap-2 border-b border-slate-200 bg-amber-50 px-3 py-1.5 text-left hover:bg-amber-100"
    >
      <span aria-hidden="true">📌</span>
      <span className="min-w-0 flex-1">
        <span className="block text-xs font-semibold text-amber-800">
          Pinned message{pins.length > 1 ? ` ${position} of ${pins.length}` : ''}
        </span>
        <span className="block truncate text-sm text-slate-700">{messagePreview(shown, kinds.messageKind(shown.type))}</span>
      </span>
    </button>
  );
}
