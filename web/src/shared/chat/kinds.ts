import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { ChatMessage, ChatUser, DeliveryIcon, InboxMessage, MessageDraft, MessageInfo, Session } from './types';

/**
 * How the chat draws messages of a type a plug-in brings (WhatsApp's 1018-1021). The chat
 * draws its own types itself; a message of a plug-in's type gets the chat's bubble with the
 * kind's content inside, and no link preview of the chat's.
 */
export interface MessageKind {
  /** The inside of the bubble. `quoted` is the text of the message it answers ('' when that one is not loaded), null when none. */
  Content: ComponentType<{ message: InboxMessage; quoted: string | null }>;
  /** The side its bubble sits on, whoever of the members sent it; without one, the viewer's own messages sit on the right. */
  side?: 'inbound' | 'outbound';
  /** Its tick once the server stored it; without one, the chat's read receipts decide. */
  deliveryIcon?: (message: InboxMessage) => DeliveryIcon;
  /** The message in one line, for the chat list. */
  preview: (message: InboxMessage) => string;
  /** When its sender sent it, where that is not when the server stored it (`created_at`): a WhatsApp customer's message may arrive late. */
  sentAt?: (message: InboxMessage) => number;
  /** False when its sender is nobody the server can name (a WhatsApp customer): the chat looks no name up for it. */
  senderIsUser?: boolean;
  /** Its part of the message info view, shown when the server's reply holds anything for it. */
  info?: { shows: (info: MessageInfo) => boolean; View: ComponentType<{ info: MessageInfo }> };
}

/** What the chat's message list takes from a conversation kind. */
export interface MessageListOptions {
  messages: ChatMessage[];
  /** The sender of a message no user sent (a WhatsApp customer); undefined leaves it to the chat's lookup. */
  senderOf?: (message: ChatMessage) => ChatUser | undefined;
  /** The text a message quotes (see MessageKind's `quoted`); without it, the message it answers by `context.reply_to`. */
  quoteOf?: (message: ChatMessage) => string | null;
}

export interface ConversationPaneProps {
  session: Session;
  /** The viewer is signed in and may send here. */
  canWrite: boolean;
  messages: ChatMessage[];
  onSend: (draft: MessageDraft) => void;
  onTyping: () => void;
  /** The message the viewer chose to answer ("Reply" on it), which the next text they send answers. */
  replyTo: ChatMessage | null;
  onReplyDone: () => void;
  /** The chat's message list with the kind's options. */
  list: (options: MessageListOptions) => ReactNode;
  /** The chat's own composer (answering `replyTo`), which also tells a viewer who may not write why. */
  composer: ReactNode;
}

/** A kind of conversation a plug-in brings (a WhatsApp business chat): how the chat names, marks and draws it. */
export interface ConversationKind {
  owns: (session: Pick<Session, 'kind' | 'data'>) => boolean;
  /** The name its row in the chat list shows. */
  title: (session: Session) => string;
  /** Beside its name in the list and the window. */
  Mark: ComponentType<{ className?: string }>;
  /** Whether the lock button may make it public. */
  mayBePublic: boolean;
  /** Its messages and what the viewer may send there. */
  Pane: ComponentType<ConversationPaneProps>;
}

export interface SessionBarProps {
  session: Session;
  meId: string | null;
}

/** What a feature adds to the chat. */
export interface ChatPlugin {
  /** By message type. */
  messageKinds?: Readonly<Record<number, MessageKind>>;
  conversationKinds?: readonly ConversationKind[];
  /** Bars under the window's header, each deciding for itself whether the session is one of its (the Give offer bar). */
  sessionBars?: readonly ComponentType<SessionBarProps>[];
}

/** The plug-ins the app started the chat with (src/app/chatPlugins.ts), as the chat asks them. */
export interface ChatKinds {
  messageKind: (type: number) => MessageKind | undefined;
  conversationKind: (session: Pick<Session, 'kind' | 'data'>) => ConversationKind | undefined;
  sessionBars: readonly ComponentType<SessionBarProps>[];
}

export function chatKinds(plugins: readonly ChatPlugin[]): ChatKinds {
  const messageKinds = new Map<number, MessageKind>();
  for (const plugin of plugins) {
    for (const [type, kind] of Object.entries(plugin.messageKinds ?? {})) {
      if (messageKinds.has(Number(type))) throw new Error(`Two chat plug-ins draw message type ${type}`);
      messageKinds.set(Number(type), kind);
    }
  }
  const conversations = plugins.flatMap((plugin) => plugin.conversationKinds ?? []);
  return {
    messageKind: (type) => messageKinds.get(type),
    conversationKind: (session) => conversations.find((kind) => kind.owns(session)),
    sessionBars: plugins.flatMap((plugin) => plugin.sessionBars ?? []),
  };
}

/** Without a provider the chat has no plug-ins. */
export const ChatKindsContext = createContext<ChatKinds>(chatKinds([]));

export function useChatKinds(): ChatKinds {
  return useContext(ChatKindsContext);
}
