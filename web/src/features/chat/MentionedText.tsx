import { useEffect, useState } from 'react';
import { Linked } from '../../shared/chat/LinkedText';
import { lookupUser } from '../../shared/chat/lookups';
import { useCurrentUser } from '../../shared/session/currentUser';
import type { InboxMessage } from '../../shared/chat/types';
import { EVERYONE_MENTIONS, mentionParts, mentionsOf } from './mentions';

/** The names of the people a message mentions, by id, as the batched lookup finds them. */
function useMentionNames(mentions: string[]): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const people = mentions.filter((entry) => !(EVERYONE_MENTIONS as readonly string[]).includes(entry)).join(',');
  useEffect(() => {
    if (!people) return undefined;
    let current = true;
    for (const id of people.split(',')) {
      void lookupUser(id).then((user) => {
        if (current && user) setNames((known) => ({ ...known, [id]: user.name }));
      });
    }
    return () => {
      current = false;
    };
  }, [people]);
  return names;
}

/** A message's text with its links, and its mentions highlighted: the viewer's own (and everyone's) most. */
export function MentionedText({ message }: { message: Pick<InboxMessage, 'payload' | 'data'> }) {
  const { user } = useCurrentUser();
  const mentions = mentionsOf(message);
  const names = useMentionNames(mentions);
  if (mentions.length === 0) return <Linked text={message.payload} />;
  return (
    <>
      {mentionParts(message.payload, mentions, names, user?._id ?? null).map((part, index) =>
        part.mention ? (
          <mark
            key={index}
            data-mention={part.mention}
            className={`rounded px-0.5 font-semibold ${part.mention === 'me' ? 'bg-amber-200 text-amber-950' : 'bg-transparent text-brand-700'}`}
          >
            {part.text}
          </mark>
        ) : (
          <Linked key={index} text={part.text} />
        ),
      )}
    </>
  );
}
