import { useState } from 'react';
import { ITEM_CHAT_PREFIX, MEMBER_TYPES } from '../../shared/constants';
import { SLOW_MODE_CHOICES, SLOW_MODE_LABEL } from './constants';
import { useUi } from '../../shared/ui/uiContext';
import type { Session } from '../../shared/chat/types';
import { updateSession } from './chatApi';
import { durationText, slowModeText } from './slowMode';

/** Group chats have a slow mode (item chats, between two people, and plug-ins' chats do not). */
export function hasSlowMode(session: Pick<Session, '_id' | 'kind'>): boolean {
  return !session.kind && !session._id.startsWith(ITEM_CHAT_PREFIX);
}

/** The chat's slow mode: its admins choose it, the others see it. */
export function SlowModeSetting({ session, onSession }: { session: Session; onSession: (session: Session) => void }) {
  const ui = useUi();
  const [saving, setSaving] = useState(false);
  if (!hasSlowMode(session)) return null;
  if (session.session_user_type !== MEMBER_TYPES.admin) {
    const text = slowModeText(session);
    return text ? <p className="text-sm text-slate-700">🐢 {text}</p> : null;
  }
  const choose = async (seconds: number) => {
    setSaving(true);
    try {
      const reply = await updateSession(session._id, { slow_mode_seconds: seconds });
      onSession({ ...session, ...reply.session });
      ui.toast(seconds ? `${SLOW_MODE_LABEL}: ${durationText(seconds)}` : `${SLOW_MODE_LABEL} off`);
    } catch (error) {
      ui.showError(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <label className="flex items-center justify-between gap-3 rounded-2xl bg-slate-50 p-3 text-sm">
      <span>
        <span className="block font-semibold text-slate-700">{SLOW_MODE_LABEL}</span>
        <span className="block text-xs text-slate-500">The least time between one member&apos;s messages; admins and moderators are not slowed.</span>
      </span>
      <select
        aria-label={SLOW_MODE_LABEL}
        value={session.slow_mode_seconds ?? 0}
        disabled={saving}
        onChange={(event) => void choose(Number(event.target.value))}
        className="rounded-xl border border-slate-300 bg-white px-2 py-1.5"
      >
        {SLOW_MODE_CHOICES.map((seconds) => (
          <option key={seconds} value={seconds}>
            {seconds ? durationText(seconds) : 'Off'}
          </option>
        ))}
      </select>
    </label>
  );
}
