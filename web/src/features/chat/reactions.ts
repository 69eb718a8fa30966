import type { Socket } from 'socket.io-client';
import { api } from '../../shared/api';
import { MEMBER_TYPES } from '../../shared/constants';
import { REACTION_ACK_MS } from './constants';
import type { ErrorsValue } from '../../shared/errors';
import type { InboxMessage, Session } from '../../shared/chat/types';

/** Who reacted with which emoji, by user id (a WhatsApp customer's by their number). */
export type ReactionMap = Readonly<Record<string, string>>;

/** The socket's `reactions`: a tick's changed reactions of a chat the tab shows. */
export interface ReactionsUpdate {
  session_id: string;
  messages: ReadonlyArray<{ created_at: number; reactions: ReactionMap }>;
}

export interface ReactBody {
  session_id: string;
  created_at: number;
  /** One of REACTION_EMOJIS; '' takes one's reaction away. */
  emoji: string;
}

type ReactReply = { ok: true; reactions: ReactionMap } | { errors: ErrorsValue };

/** What choosing `emoji` asks for: the same as one's own again takes it away. */
export function chosenReaction(reactions: ReactionMap | undefined, meId: string, emoji: string): string {
  return reactions?.[meId] === emoji ? '' : emoji;
}

/** The reactions once `userId` chose `emoji` ('' none): one per person, a new one replacing theirs. */
export function withReaction(reactions: ReactionMap | undefined, userId: string, emoji: string): Record<string, string> {
  const { [userId]: _replaced, ...others } = reactions ?? {};
  return emoji ? { ...others, [userId]: emoji } : others;
}

/** The messages with these messages' reactions as the server tells them (messages not loaded stay out). */
export function applyReactions<T extends InboxMessage>(messages: readonly T[], changes: ReactionsUpdate['messages']): T[] {
  const byTime = new Map(changes.map((change) => [change.created_at, change.reactions]));
  return messages.map((message) => {
    const reactions = byTime.get(message.created_at);
    return reactions === undefined ? message : { ...message, data: { ...message.data, reactions } };
  });
}

/** Who reacted with `emoji`, the viewer first. */
export function reactorsOf(reactions: ReactionMap, emoji: string, meId: string | null): string[] {
  const who = Object.keys(reactions).filter((userId) => reactions[userId] === emoji);
  return who.sort((a, b) => Number(b === meId) - Number(a === meId));
}

/**
 * Whether the viewer reacts in this chat: its members who may post in it (as the server
 * decides), never in a plug-in's conversation (a WhatsApp customer would never see it).
 */
export function mayReact(session: Session, meId: string | null, pluginConversation: boolean): boolean {
  const type = session.session_user_type;
  return meId !== null && !pluginConversation && session.can_send && type !== null && type <= MEMBER_TYPES.member;
}

/** The reaction over the socket when it is connected (answered within REACTION_ACK_MS), else over HTTP. */
export async function sendReaction(body: ReactBody, socket: Socket | null): Promise<ReactionMap> {
  if (socket?.connected) {
    let reply: ReactReply | null = null;
    try {
      reply = (await socket.timeout(REACTION_ACK_MS).emitWithAck('react', body)) as ReactReply;
    } catch {
      // No answer in time: HTTP sets the same reaction again (setting it twice is setting it once).
    }
    if (reply && 'ok' in reply) return reply.reactions;
    if (reply) throw { status: 400, errors: reply.errors };
  }
  const answer = await api.post<{ reactions: ReactionMap }>('/session/message/react', body);
  return answer.reactions;
}
