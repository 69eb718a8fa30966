import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { CANNOT_SEND_TEXT, COMMON_EMOJI, MESSAGE_TYPES, NEED_LOGIN_TO_CHAT_TEXT } from './constants';
import { CHAT_ATTACHMENT_TYPES, CHAT_MAX_FILE_BYTES, MESSAGE_PLACEHOLDER } from '../../shared/constants';
import { useFileUploads } from '../../shared/hooks/useFileUploads';
import { LocationIcon, PaperclipIcon, SendIcon, SmileIcon } from '../../shared/ui/icons';
import { useUi } from '../../shared/ui/uiContext';
import { openLogin } from '../../shared/session/login';
import { AttachmentChips } from '../../shared/chat/AttachmentChips';
import { ReplyingTo } from '../../shared/chat/Quote';
import { replyData } from '../../shared/chat/replies';
import { iconButton, messageBoxClass, sendButtonClass } from '../../shared/chat/composerStyles';
import { itemFileFrom, type ItemFile } from '../../shared/entities/item';
import { AddressPickerDialog } from '../../shared/location/AddressPickerDialog';
import type { MessageDraft, Session } from '../../shared/chat/types';
import { readDraft, writeDraft } from './chatMemory';
import { attachmentLimitError, canSubmit } from './rules';
import { MentionPicker } from './MentionPicker';
import { countdownText, slowModeText } from './slowMode';
import { useCountdown } from './useCountdown';
import { useMentioning } from './useMentioning';

interface ComposerProps {
  session: Session;
  signedIn: boolean;
  /** Admins may send their message as the animated banner. */
  canSendBanner: boolean;
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message the next one answers (its created_at, and its text for the bar over the box). */
  replyTo: { created_at: number; text: string } | null;
  onReplyDone: () => void;
  meId?: string | null;
  /** When the viewer may send again under the chat's slow mode (epoch ms); null: now. */
  sendableAt?: number | null;
}

export function Composer({ session, signedIn, canSendBanner, onSend, onTyping, replyTo, onReplyDone, meId = null, sendableAt = null }: ComposerProps) {
  const ui = useUi();
  // What is typed stays the chat's until sent, a reload or a closed window notwithstanding.
  const [text, setText] = useState(() => readDraft(session._id));
  useEffect(() => writeDraft(session._id, text), [session._id, text]);
  const [files, setFiles] = useState<ItemFile[]>([]);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [banner, setBanner] = useState(false);
  const [pickingPlace, setPickingPlace] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const mentioning = useMentioning(session, meId, text, setText, textArea);
  const waitMs = useCountdown(sendableAt);
  const uploads = useFileUploads({ maxBytes: CHAT_MAX_FILE_BYTES, allowedTypes: CHAT_ATTACHMENT_TYPES }, (uploaded, title) =>
    setFiles((current) => [...current, itemFileFrom(uploaded, title)]),
  );
  // Opening a chat puts the caret where one writes (once there is a box to write in).
  const writable = signedIn && session.can_send;
  useEffect(() => {
    if (writable) textArea.current?.focus({ preventScroll: true });
  }, [writable]);
  // Choosing "Reply" puts the caret where the answer goes.
  const answeredAt = replyTo?.created_at;
  useEffect(() => {
    if (answeredAt !== undefined) textArea.current?.focus({ preventScroll: true });
  }, [answeredAt]);

  if (!signedIn) {
    return (
      <button type="button" onClick={() => openLogin()} className="border-t border-slate-200 bg-white px-4 py-4 text-sm font-semibold text-brand-700 hover:bg-slate-50">
        {NEED_LOGIN_TO_CHAT_TEXT}
      </button>
    );
  }
  if (!session.can_send) {
    return <p className="border-t border-slate-200 bg-white px-4 py-4 text-center text-sm text-slate-500">{CANNOT_SEND_TEXT}</p>;
  }

  const addFiles = (chosen: File[], pasted: boolean) => {
    const refusal = attachmentLimitError(files.length + uploads.pending.length, chosen.length, pasted);
    if (refusal) {
      ui.showError(refusal);
      return;
    }
    chosen.forEach((file) => void uploads.upload(file));
  };

  const onPaste = (event: ClipboardEvent) => {
    const pasted = [...event.clipboardData.files];
    if (pasted.length === 0) return;
    event.preventDefault();
    addFiles(pasted, true);
  };

  const ready = canSubmit(text, files.length, uploads.uploading) && waitMs === 0;
  const submit = () => {
    if (!ready) return;
    const data = { ...replyData({}, replyTo), ...mentioning.data(text.trim()) };
    onSend({ text: text.trim(), files, type: banner ? MESSAGE_TYPES.banner : MESSAGE_TYPES.chat, data });
    mentioning.clear();
    setText('');
    setFiles([]);
    setBanner(false);
    setEmojiOpen(false);
    onReplyDone();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (mentioning.onKeyDown(event)) return;
    // Enter sends, Shift+Enter starts a new line; not while an input method composes a character.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <div className="relative border-t border-slate-200 bg-white">
      {emojiOpen && (
        <div role="listbox" aria-label="Emoji" className="grid max-h-44 grid-cols-10 gap-0.5 overflow-y-auto border-b border-slate-100 p-2">
          {COMMON_EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              role="option"
              aria-selected={false}
              onClick={() => {
                setText((current) => current + emoji);
                textArea.current?.focus();
              }}
              className="rounded-md p-0.5 text-xl hover:bg-slate-100"
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
      {replyTo && <ReplyingTo text={replyTo.text} onCancel={onReplyDone} />}
      <MentionPicker choices={mentioning.choices} highlighted={mentioning.highlighted} onHighlight={mentioning.setHighlighted} onPick={mentioning.pick} />
      {slowModeText(session) && (
        <p data-testid="slow-mode" className="px-3 pt-1.5 text-xs text-slate-500">
          🐢 {slowModeText(session)}
        </p>
      )}
      <AttachmentChips
        attached={files.map((file) => ({
          key: file.url,
          label: file.title,
          title: file.title,
          onRemove: () => setFiles((current) => current.filter((entry) => entry.url !== file.url)),
        }))}
        pending={uploads.pending}
      />
      <div className="flex items-end gap-1 p-2">
        <button type="button" aria-label="Emoji" aria-expanded={emojiOpen} onClick={() => setEmojiOpen((open) => !open)} className={iconButton}>
          <SmileIcon />
        </button>
        <button type="button" aria-label="Attach files" onClick={() => input.current?.click()} className={iconButton}>
          <PaperclipIcon />
        </button>
        <button type="button" aria-label="Share a location" onClick={() => setPickingPlace(true)} className={iconButton}>
          <LocationIcon />
        </button>
        {canSendBanner && (
          <button
            type="button"
            aria-label="Send as banner"
            aria-pressed={banner}
            onClick={() => setBanner((value) => !value)}
            className={`${iconButton} ${banner ? 'bg-amber-100 text-amber-700' : ''}`}
          >
            📣
          </button>
        )}
        <textarea
          ref={textArea}
          rows={1}
          value={text}
          aria-label="Message"
          placeholder={MESSAGE_PLACEHOLDER}
          onChange={(event) => {
            setText(event.target.value);
            mentioning.follow(event.target);
            onTyping();
          }}
          onSelect={(event) => mentioning.follow(event.currentTarget)}
          onBlur={mentioning.close}
          onKeyDown={onKeyDown}
          aria-controls={mentioning.choices.length ? 'mention-picker' : undefined}
          aria-activedescendant={mentioning.choices.length ? `mention-option-${mentioning.highlighted}` : undefined}
          onPaste={onPaste}
          className={messageBoxClass}
        />
        {waitMs > 0 ? (
          // Slow mode: the wait replaces Send until the viewer may send again.
          <span role="timer" aria-label={`You can send again in ${Math.ceil(waitMs / 1000)} seconds`} data-testid="slow-mode-wait" className="min-w-12 rounded-full bg-slate-100 px-2.5 py-2 text-center text-sm font-semibold text-slate-600 tabular-nums">
            {countdownText(waitMs)}
          </span>
        ) : (
          <button
            type="button"
            aria-label="Send"
            disabled={!ready}
            onClick={submit}
            className={sendButtonClass}
          >
            <SendIcon />
          </button>
        )}
      </div>
      <input
        ref={input}
        type="file"
        aria-label="Files"
        accept={CHAT_ATTACHMENT_TYPES.join(',')}
        multiple
        className="hidden"
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])];
          event.target.value = '';
          addFiles(chosen, false);
        }}
      />
      {pickingPlace && (
        <AddressPickerDialog
          onClose={() => setPickingPlace(false)}
          onShare={(place) => {
            onSend({ text: '', files: [], type: MESSAGE_TYPES.chat, data: replyData({ location: place }, replyTo) });
            onReplyDone();
          }}
        />
      )}
    </div>
  );
}
