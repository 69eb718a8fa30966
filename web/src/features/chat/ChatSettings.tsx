import { useState } from 'react';
import { MEMBER_TYPES, MODERATION_LABELS } from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useCursorPages } from '../../shared/hooks/useCursorPages';
import { Avatar } from '../../shared/ui/Avatar';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { Spinner } from '../../shared/ui/Spinner';
import { useUi } from '../../shared/ui/uiContext';
import type { Session } from '../../shared/chat/types';
import { fetchSessionUsers, moderate, updateSession, type ModerationAction, type SessionUser } from './chatApi';
import { MuteButton } from './MuteButton';
import { isModerator, moderationActions } from './rules';

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
      <MuteButton session={session} onSession={onSession} withLabel />
      {admin && <EditSession session={session} onSession={onSession} />}
      <Members session={session} />
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

function Members({ session }: { session: Session }) {
  const ui = useUi();
  const [count, setCount] = useState<number | null>(null);
  const members = useCursorPages(session._id, (cursor) =>
    fetchSessionUsers(session._id, cursor).then((reply) => {
      setCount(reply.session_users_count);
      return { items: reply.session_users, cursor: reply.cursor, hasMore: reply.has_more };
    }),
  );
  const viewerType = session.session_user_type;
  const moderator = isModerator(viewerType);

  const act = async (member: SessionUser, action: ModerationAction) => {
    try {
      const reply = await moderate(session._id, member.user_id, action);
      members.setItems((current) =>
        current.map((entry) => (entry.user_id === member.user_id ? { ...entry, ...reply.session_user, user: entry.user } : entry)),
      );
    } catch (error) {
      ui.showError(error);
    }
  };

  return (
    <section aria-labelledby="chat-members-heading" className="space-y-2">
      <h3 id="chat-members-heading" className="text-sm font-semibold text-slate-700">
        Members{count !== null && ` (${count})`}
      </h3>
      <ul onScroll={members.onBoxScroll} className="max-h-80 space-y-1 overflow-y-auto">
        {members.items.map((member) => (
          <li key={member.user_id} className="rounded-xl px-1 py-1.5">
            <div className="flex items-center gap-2 text-sm">
              <Avatar name={member.user.name} image={member.user.image} size={32} />
              <span className="min-w-0 flex-1 truncate">{member.user.name}</span>
              {moderationActions(viewerType, member.session_user_type).map((action) => (
                <Button key={action} size="sm" variant={action === 'block' || action === 'reject' ? 'danger' : 'secondary'} onClick={() => void act(member, action)}>
                  {MODERATION_LABELS[action]}
                </Button>
              ))}
            </div>
            {moderator && member.data.app !== undefined && (
              <pre className="mt-1 ml-10 overflow-x-auto rounded-lg bg-slate-50 p-2 text-xs text-slate-600">{JSON.stringify(member.data.app, null, 1)}</pre>
            )}
          </li>
        ))}
      </ul>
      {members.loading && <Spinner className="size-4 text-slate-500" />}
    </section>
  );
}
