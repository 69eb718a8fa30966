import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_SEARCH_MAX_LENGTH, CHAT_SEARCH_PLACEHOLDER, NO_SEARCH_RESULTS_TEXT } from './constants';
import { errorMessages } from '../../shared/errors';
import { Spinner } from '../../shared/ui/Spinner';
import { CloseIcon, SearchIcon } from '../../shared/ui/icons';
import type { ChatUser, InboxMessage } from '../../shared/chat/types';
import { searchChat, type SearchPage } from './chatApi';
import { markedParts } from './jumps';

/** Typing pauses this long before the search goes out. */
const SEARCH_PAUSE_MS = 300;

const resultTime = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

interface Results {
  messages: InboxMessage[];
  users: Record<string, ChatUser>;
  words: string[];
  hasMore: boolean;
  before: number | null;
}

interface ChatSearchProps {
  sessionId: string;
  /** A result picked: the chat opens at it. */
  onPick: (createdAt: number) => void;
  onClose: () => void;
}

/** Search in one chat's history: a field, and its messages holding every word, newest first. */
export function ChatSearch({ sessionId, onPick, onClose }: ChatSearchProps) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef<AbortController | null>(null);

  const search = useCallback((q: string, before: number | null) => {
    asked.current?.abort();
    const controller = new AbortController();
    asked.current = controller;
    setLoading(true);
    searchChat(sessionId, q, before, controller.signal)
      .then((page: SearchPage) => {
        setError(null);
        setResults((current) => ({
          messages: before === null || !current ? page.inbox_messages : [...current.messages, ...page.inbox_messages],
          users: { ...current?.users, ...page.refs.users },
          words: page.words,
          hasMore: page.has_more,
          before: page.next_less_than_timestamp,
        }));
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        setResults(null);
        setError(errorMessages(failure));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
  }, [sessionId]);

  // An emptied field shows no results (and stops a search under way).
  const clear = () => {
    asked.current?.abort();
    setResults(null);
    setError(null);
    setLoading(false);
  };

  useEffect(() => {
    const q = query.trim();
    if (!q) return undefined;
    const timer = setTimeout(() => search(q, null), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [query, search]);
  useEffect(() => () => asked.current?.abort(), []);

  return (
    <div data-testid="chat-search" className="absolute inset-0 z-10 flex flex-col bg-white">
      <form
        role="search"
        className="flex items-center gap-2 border-b border-slate-200 px-3 py-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim()) search(query.trim(), null);
        }}
      >
        <SearchIcon />
        <input
          autoFocus
          type="search"
          aria-label={CHAT_SEARCH_PLACEHOLDER}
          placeholder={CHAT_SEARCH_PLACEHOLDER}
          maxLength={CHAT_SEARCH_MAX_LENGTH}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            if (!event.target.value.trim()) clear();
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Closes the search, not the window.
            event.preventDefault();
            onClose();
          }}
          className="min-w-0 flex-1 rounded-full bg-slate-100 px-3 py-1.5 text-sm outline-none focus:ring-2 focus:ring-brand-500"
        />
        {loading && <Spinner className="size-4 text-slate-500" />}
        <button type="button" aria-label="Close search" onClick={onClose} className="rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800">
          <CloseIcon />
        </button>
      </form>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error && (
          <p role="alert" className="px-4 py-3 text-sm text-red-700">
            {error}
          </p>
        )}
        {results && results.messages.length === 0 && <p className="px-4 py-10 text-center text-sm text-slate-500">{NO_SEARCH_RESULTS_TEXT}</p>}
        {results && results.messages.length > 0 && (
          <ul aria-label="Search results" className="divide-y divide-slate-100">
            {results.messages.map((message) => (
              <li key={message.id}>
                <button type="button" onClick={() => onPick(message.created_at)} className="block w-full px-4 py-2.5 text-left hover:bg-slate-50 focus:bg-slate-50">
                  <span className="flex items-baseline justify-between gap-2 text-xs text-slate-500">
                    <span className="truncate font-semibold text-slate-700">{results.users[message.src_id]?.name ?? ''}</span>
                    <time dateTime={new Date(message.created_at).toISOString()}>{resultTime.format(message.created_at)}</time>
                  </span>
                  <span className="mt-0.5 line-clamp-3 text-sm break-words text-slate-800">
                    {markedParts(message.payload, results.words).map((part, index) =>
                      part.match ? (
                        <mark key={index} className="rounded bg-amber-200 px-0.5 text-slate-900">
                          {part.text}
                        </mark>
                      ) : (
                        <span key={index}>{part.text}</span>
                      ),
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {results?.hasMore && (
          <div className="flex justify-center py-3">
            <button
              type="button"
              disabled={loading}
              onClick={() => search(query.trim(), results.before)}
              className="rounded-full bg-slate-100 px-4 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-200"
            >
              Older results
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
