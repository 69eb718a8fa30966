import { useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { isModerator } from '../../shared/chat/members';
import type { MessageData, Session } from '../../shared/chat/types';
import { insertMention, mentionQueryAt, mentionsToSend, type MentionQuery } from './mentions';
import { useMentionChoices, type MentionChoice } from './MentionPicker';

/**
 * The composer's mentions: the picker follows an `@` being typed at the caret, arrows move
 * through its choices, Enter or Tab (or a tap) writes `@Name`, Escape closes it; a message
 * sends the people whose `@Name` it still holds (`data.mentions`).
 */
export function useMentioning(session: Session, meId: string | null, text: string, setText: (text: string) => void, box: RefObject<HTMLTextAreaElement | null>) {
  const [query, setQuery] = useState<MentionQuery | null>(null);
  const [highlighted, setHighlighted] = useState(0);
  // Name -> user id of each person picked for the message being written.
  const picked = useRef(new Map<string, string>());
  const mayMentionEveryone = isModerator(session.session_user_type);
  const choices = useMentionChoices(session._id, query?.query ?? null, meId, mayMentionEveryone);

  const follow = (element: HTMLTextAreaElement) => {
    const next = mentionQueryAt(element.value, element.selectionStart ?? element.value.length, picked.current.keys());
    if (next?.query !== query?.query || next?.start !== query?.start) setHighlighted(0);
    setQuery(next);
  };

  const pick = (choice: MentionChoice) => {
    const element = box.current;
    if (!query || !element) return;
    const written = insertMention(text, query, element.selectionStart ?? text.length, choice.name);
    if (!choice.everyone) picked.current.set(choice.name, choice.id);
    setText(written.text);
    setQuery(null);
    // The caret after the name once the box shows the new text.
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(written.caret, written.caret);
    });
  };

  /** Whether the picker took the key. */
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (choices.length === 0) return false;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      setHighlighted((index) => (index + (moves[event.key] ?? 0) + choices.length) % choices.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const choice = choices[Math.min(highlighted, choices.length - 1)];
      if (choice) pick(choice);
    } else if (event.key === 'Escape') {
      // The picker closes; the chat window stays open.
      setQuery(null);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  };

  const data = (sent: string): MessageData => {
    const mentions = mentionsToSend(sent, picked.current, mayMentionEveryone);
    return mentions.length ? { mentions } : {};
  };

  return {
    choices,
    highlighted,
    setHighlighted,
    follow,
    pick,
    onKeyDown,
    close: () => setQuery(null),
    data,
    clear: () => picked.current.clear(),
  };
}
