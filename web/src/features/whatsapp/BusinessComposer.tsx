import { useRef, useState, type KeyboardEvent } from 'react';
import { CHAT_MAX_FILE_BYTES, MESSAGE_PLACEHOLDER } from '../../shared/constants';
import { WA_MEDIA_TYPES, WA_TEMPLATE_ONLY_TEXT } from './constants';
import { useFileUploads } from '../../shared/hooks/useFileUploads';
import { Button } from '../../shared/ui/Button';
import { SendIcon } from '../../shared/ui/icons';
import { AttachmentChips } from '../../shared/chat/AttachmentChips';
import { ReplyingTo } from '../../shared/chat/Quote';
import { messageBoxClass, sendButtonClass } from '../../shared/chat/composerStyles';
import type { InboxMessage, MessageDraft } from '../../shared/chat/types';
import { itemFileFrom, type ItemFile } from '../../shared/entities/item';
import { AddressPickerDialog } from '../../shared/location/AddressPickerDialog';
import { waPreview } from './businessChat';
import { ContactsDialog } from './ContactsDialog';
import { InteractiveDialog } from './InteractiveDialog';
import { KindMenu, type ComposerKind } from './KindMenu';
import { contactsDraft, locationDraft, mediaDraft, textDraft, type MediaKind } from './sends';
import { TemplatePicker } from './TemplatePicker';

interface BusinessComposerProps {
  sessionId: string;
  /** Whether free-form replies are allowed (the 24-hour window is open). */
  windowOpen: boolean;
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message a text sent now answers; media and other kinds answer nothing. */
  replyTo: InboxMessage | null;
  onReplyDone: () => void;
}

const MEDIA_KINDS = Object.keys(WA_MEDIA_TYPES) as MediaKind[];
const ALL_MEDIA_TYPES = Object.values(WA_MEDIA_TYPES).flat();

type Dialog = 'location' | 'contacts' | 'buttons' | 'list' | 'template';

/** A business chat's composer: text and every WhatsApp kind inside the window, templates only outside it. */
export function BusinessComposer({ sessionId, windowOpen, onSend, onTyping, replyTo, onReplyDone }: BusinessComposerProps) {
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<{ kind: MediaKind; file: ItemFile } | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const uploadingKind = useRef<MediaKind>('image');
  const inputs = useRef<Partial<Record<MediaKind, HTMLInputElement | null>>>({});
  const uploads = useFileUploads({ maxBytes: CHAT_MAX_FILE_BYTES, allowedTypes: ALL_MEDIA_TYPES }, (uploaded, title) =>
    setAttached({ kind: uploadingKind.current, file: itemFileFrom(uploaded, title) }),
  );

  const pick = (kind: ComposerKind) => {
    if (kind in WA_MEDIA_TYPES) inputs.current[kind as MediaKind]?.click();
    else setDialog(kind as Dialog);
  };

  const ready = !uploads.uploading && (attached !== null || text.trim() !== '');
  const submit = () => {
    if (!ready) return;
    onSend(attached ? mediaDraft(attached.kind, attached.file, text) : textDraft(text, replyTo));
    setText('');
    setAttached(null);
    onReplyDone();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const dialogs = (
    <>
      {dialog === 'template' && <TemplatePicker sessionId={sessionId} onSend={onSend} onClose={() => setDialog(null)} />}
      {dialog === 'location' && <AddressPickerDialog onShare={(place) => onSend(locationDraft(place))} onClose={() => setDialog(null)} />}
      {dialog === 'contacts' && <ContactsDialog onShare={(contacts) => onSend(contactsDraft(contacts))} onClose={() => setDialog(null)} />}
      {(dialog === 'buttons' || dialog === 'list') && <InteractiveDialog kind={dialog} onSend={onSend} onClose={() => setDialog(null)} />}
    </>
  );

  if (!windowOpen) {
    return (
      <div data-testid="template-only" className="flex items-center gap-3 border-t border-slate-200 bg-white p-3">
        <p className="flex-1 text-sm text-slate-600">{WA_TEMPLATE_ONLY_TEXT}</p>
        <Button size="sm" onClick={() => setDialog('template')}>
          Send a template
        </Button>
        {dialogs}
      </div>
    );
  }

  return (
    <div className="border-t border-slate-200 bg-white">
      {replyTo && !attached && <ReplyingTo text={waPreview(replyTo)} onCancel={onReplyDone} />}
      <AttachmentChips
        attached={
          attached
            ? [
                {
                  key: attached.file.url,
                  label: `${attached.kind}: ${attached.file.title}`,
                  title: attached.file.title,
                  onRemove: () => setAttached(null),
                  wide: true,
                },
              ]
            : []
        }
        pending={uploads.pending}
      />
      <div className="flex items-end gap-1 p-2">
        <KindMenu onPick={pick} />
        <textarea
          rows={1}
          value={text}
          aria-label={attached ? 'Caption' : 'Message'}
          placeholder={attached ? 'Add a caption' : MESSAGE_PLACEHOLDER}
          onChange={(event) => {
            setText(event.target.value);
            onTyping();
          }}
          onKeyDown={onKeyDown}
          className={messageBoxClass}
        />
        <button type="button" aria-label="Send" disabled={!ready} onClick={submit} className={sendButtonClass}>
          <SendIcon />
        </button>
      </div>
      {MEDIA_KINDS.map((kind) => (
        <input
          key={kind}
          ref={(element) => {
            inputs.current[kind] = element;
          }}
          type="file"
          aria-label={`Choose ${kind}`}
          accept={WA_MEDIA_TYPES[kind].join(',')}
          className="hidden"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            uploadingKind.current = kind;
            void uploads.upload(file);
          }}
        />
      ))}
      {dialogs}
    </div>
  );
}
