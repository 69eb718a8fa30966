import { useState } from 'react';
import { MEMBER_TYPES } from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { MembersList } from '../../shared/chat/MembersList';
import type { Session } from '../../shared/chat/types';
import { updateSession } from './chatApi';
import { MuteButton } from './MuteButton';
import { SlowModeSetting } from './SlowModeSetting';

interface ChatSettingsProps {
  session: Session;
  onSession: (session: Session) => void;
  onClose: () => void;
}

/** Mute, the admin's edit form and the members with their moderation menu. */
export function ChatSettings({ session, onSession, onClose }: ChatSettingsProps) {
  const admin = session.session_user_type === MEMBER_TYPES.admin;
  return (
    <section aria-label="Chat settings" className="min-h-0 flex-1 space-y-5 overflow-y-auto bg-white p-4">
      <div className="flex items-center justify-between">
        <h3 className="text-base font-semibold">Settings</h3>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Back to chat
        </Button>
      </div>
      <MuteButton session={session} withLabel />
      {admin && <EditSession session={session} onSession={onSession} />}
      <SlowModeSetting session={session} onSession={onSession} />
      <MembersList sessionId={session._id} viewerType={session.session_user_type} headingLevel={3} />
    </section>
  );
}

function EditSession({ session, onSession }: { session: Session; onSession: (session: Session) => void }) {
  const ui = useUi();
  const [title, setTitle] = useState(session.title);
  const [description, setDescription] = useState(session.description);
  const save = useAsyncAction(async () => {
    try {
      const reply = await updateSession(session._id, { title, description });
      onSession({ ...session, ...reply.session });
      ui.toast('Saved');
    } catch (error) {
      ui.showError(error);
    }
  });
  return (
    <form
      aria-label="Edit chat"
      className="space-y-3 rounded-2xl bg-slate-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h4 className="text-sm font-semibold text-slate-700">Edit</h4>
      <TextField id="chat-title" label="Title" value={title} onChange={(event) => setTitle(event.target.value)} />
      <TextField id="chat-description" label="Description" value={description} onChange={(event) => setDescription(event.target.value)} />
      <Button type="submit" size="sm" busy={save.busy}>
        Save
      </Button>
    </form>
  );
}
