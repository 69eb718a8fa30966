import { useEffect, useState } from 'react';
import { MEMBER_TYPES } from '../../shared/constants';
import { MENTION_EVERYONE_TEXT, MENTION_PICKER_MAX, MENTION_SEARCH_DEBOUNCE_MS } from './constants';
import { Avatar } from '../../shared/ui/Avatar';
import { searchMembers } from './chatApi';
import { EVERYONE_MENTIONS, filterByName } from './mentions';

/** One choice of the picker: a member (their id and name), or everyone (`all`, `here`). */
export interface MentionChoice {
  id: string;
  name: string;
  image?: string;
  everyone?: boolean;
}

/**
 * The choices for what is typed after `@`: the chat's members who read it, by name (the
 * server searches them, a moment after the last keystroke), and `@all`/`@here` for those
 * who may mention everyone; never the viewer.
 */
export function useMentionChoices(sessionId: string, query: string | null, meId: string | null, mayMentionEveryone: boolean): MentionChoice[] {
  const [members, setMembers] = useState<MentionChoice[]>([]);
  useEffect(() => {
    if (query === null) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchMembers(sessionId, query.trim(), controller.signal)
        .then((page) =>
          setMembers(
            page.session_users
              .filter((member) => member.user_id !== meId && member.session_user_type <= MEMBER_TYPES.member)
              .map((member) => ({ id: member.user_id, name: member.user.name, image: member.user.image })),
          ),
        )
        .catch(() => undefined);
    }, MENTION_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [sessionId, query, meId]);
  if (query === null) return [];
  const everyone = mayMentionEveryone ? EVERYONE_MENTIONS.map((word) => ({ id: word, name: word, everyone: true })) : [];
  return [...filterByName(everyone, query, everyone.length), ...filterByName(members, query, MENTION_PICKER_MAX)].slice(0, MENTION_PICKER_MAX);
}

interface MentionPickerProps {
  choices: MentionChoice[];
  highlighted: number;
  onHighlight: (index: number) => void;
  onPick: (choice: MentionChoice) => void;
}

/** The list over the message box while a mention is typed: arrows and Enter in the box, or a tap. */
export function MentionPicker({ choices, highlighted, onHighlight, onPick }: MentionPickerProps) {
  if (choices.length === 0) return null;
  return (
    <ul
      id="mention-picker"
      role="listbox"
      aria-label="Mention someone"
      className="max-h-56 overflow-y-auto border-b border-slate-100 bg-white py-1"
    >
      {choices.map((choice, index) => (
        <li
          key={choice.id}
          id={`mention-option-${index}`}
          role="option"
          aria-selected={index === highlighted}
          // Chosen on press, before the message box loses the caret.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(choice);
          }}
          onMouseEnter={() => onHighlight(index)}
          className={`flex cursor-pointer items-center gap-2 px-3 py-2 text-sm ${index === highlighted ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
        >
          {choice.everyone ? (
            <span className="flex size-7 items-center justify-center rounded-full bg-amber-100 font-semibold text-amber-800">@</span>
          ) : (
            <Avatar name={choice.name} image={choice.image ?? ''} size={28} />
          )}
          <span className="font-medium text-slate-900">{choice.everyone ? `@${choice.name}` : choice.name}</span>
          {choice.everyone && <span className="truncate text-xs text-slate-500">{MENTION_EVERYONE_TEXT[choice.id]}</span>}
        </li>
      ))}
    </ul>
  );
}
