import { CloseIcon } from '../ui/icons';

/** Shown for the message a reply answers when that message is not loaded (older than the page). */
const EARLIER_MESSAGE_TEXT = 'An earlier message';

/** Above a message: the message it answers (its text, when that message is loaded); nothing when it answers none (`quoted` null). */
export function Quote({ quoted }: { quoted: string | null }) {
  if (quoted === null) return null;
  return (
    <blockquote aria-label="Reply to" className="mb-1 line-clamp-3 rounded-md border-l-4 border-brand-500 bg-black/5 px-2 py-1 text-sm text-slate-700">
      {quoted || EARLIER_MESSAGE_TEXT}
    </blockquote>
  );
}

/** Over a composer: the message the next one answers, and a way to answer nothing. */
export function ReplyingTo({ text, onCancel }: { text: string; onCancel: () => void }) {
  return (
    <div className="flex items-center gap-2 px-3 pt-2">
      <blockquote aria-label="Replying to" className="min-w-0 flex-1 truncate rounded-md border-l-4 border-brand-500 bg-slate-100 px-2 py-1 text-sm text-slate-700">
        {text || EARLIER_MESSAGE_TEXT}
      </blockquote>
      <button type="button" aria-label="Cancel the reply" onClick={onCancel} className="rounded-full p-1 text-slate-500 hover:bg-slate-100">
        <CloseIcon className="size-4" />
      </button>
    </div>
  );
}
