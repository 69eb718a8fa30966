import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { DELETE_MESSAGE_TEXT, DELETE_MESSAGE_TITLE } from './constants';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { CloseIcon, SendIcon } from '../../shared/ui/icons';
import { useUi } from '../../shared/ui/uiContext';
import { messageBoxClass, sendButtonClass } from '../../shared/chat/composerStyles';
import type { ChatMessage, InboxMessage, Session } from '../../shared/chat/types';
import type { MessageAction } from './MessageBubble';
import { canDelete, canEdit, canPin, deleteMessage, editMessage, pinMessage } from './messageChanges';
import { PinnedBar } from './PinnedBar';
import { usePins } from './useMessageChanges';

/**
 * A chat's message tools: the Edit, Delete and Pin actions of each message's menu, the editor
 * that takes the composer's place while a message is edited, the deletion's confirmation, and
 * the pinned messages' bar at the top of the chat (a pin opens the chat at its message: `openAt`).
 */
export function useMessageTools(session: Session, meId: string | null, changed: (message: InboxMessage) => void, openAt: (createdAt: number) => void) {
  const ui = useUi();
  const { pins, setPins } = usePins(session._id, !session.is_dummy && !session.kind);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const pinned = new Set(pins.map((pin) => pin.id));

  const pin = (message: ChatMessage, on: boolean) =>
    pinMessage(session._id, message.created_at, on).then((reply) => setPins(reply.pins), ui.showError);

  const actionsOf = (message: ChatMessage): MessageAction[] => [
    ...(canEdit(message, meId, session) ? [{ label: 'Edit', onSelect: () => setEditing(message) }] : []),
    ...(canPin(message, session)
      ? [pinned.has(message.id) ? { label: 'Unpin', onSelect: () => void pin(message, false) } : { label: 'Pin', onSelect: () => void pin(message, true) }]
      : []),
    ...(canDelete(message, meId, session) ? [{ label: 'Delete', onSelect: () => setDeleting(message) }] : []),
  ];

  const save = async (message: ChatMessage, text: string) => {
    try {
      changed((await editMessage(session._id, message.created_at, text)).message);
      setEditing(null);
    } catch (error) {
      ui.showError(error);
    }
  };

  const confirmDelete = async (message: ChatMessage) => {
    setDeleting(null);
    try {
      changed((await deleteMessage(session._id, message.created_at)).message);
    } catch (error) {
      ui.showError(error);
    }
  };

  const bar = pins.length > 0 ? <PinnedBar pins={pins} onOpen={(message) => openAt(message.created_at)} /> : null;
  const editor = editing && <MessageEditor key={editing.id} message={editing} onSave={(text) => save(editing, text)} onCancel={() => setEditing(null)} />;
  const dialog: ReactNode = deleting && (
    <ConfirmDialog title={DELETE_MESSAGE_TITLE} confirmLabel="Delete" focusCancel onConfirm={() => void confirmDelete(deleting)} onCancel={() => setDeleting(null)}>
      {DELETE_MESSAGE_TEXT}
    </ConfirmDialog>
  );
  return { actionsOf, bar, editor, dialog };
}

/** The composer's place while a message is edited: its text to change; Enter saves, Escape cancels. */
function MessageEditor({ message, onSave, onCancel }: { message: ChatMessage; onSave: (text: string) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState(message.payload);
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = box.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const ready = text.trim() !== '' && text.trim() !== message.payload && !saving;
  const submit = () => {
    if (!ready) return;
    setSaving(true);
    void onSave(text.trim()).finally(() => setSaving(false));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      // Escape cancels the edit, not the chat window.
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <div className="border-t border-slate-200 bg-white">
      <p className="flex items-center gap-2 px-3 pt-2 text-xs font-semibold text-brand-700">
        <span className="flex-1">Editing message · Esc to cancel</span>
        <button type="button" aria-label="Cancel editing" onClick={onCancel} className="rounded-full p-1 text-slate-500 hover:bg-slate-100">
          <CloseIcon className="size-4" />
        </button>
      </p>
      <div className="flex items-end gap-1 p-2">
        <textarea ref={box} rows={1} value={text} aria-label="Edit message" onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} className={messageBoxClass} />
        <button type="button" aria-label="Save the edit" disabled={!ready} onClick={submit} className={sendButtonClass}>
          <SendIcon />
        </button>
      </div>
    </div>
  );
}
