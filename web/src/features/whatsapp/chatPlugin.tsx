import type { ChatPlugin, MessageKind } from '../../shared/chat/kinds';
import type { MessageInfo } from '../../shared/chat/types';
import { WA_MESSAGE_TYPES } from './constants';
import { BusinessChatPane } from './BusinessChatPane';
import { customerName, customerSentAt, isBusinessSession, waDeliveryIcon, waPreview } from './businessChat';
import { WhatsAppContent } from './WhatsAppContent';
import { hasWaInfo, WhatsAppInfo } from './WhatsAppInfo';
import { WhatsAppMark } from './WhatsAppMark';
import type { WaInfo, WaMessage } from './whatsappApi';

/** The message info reply's `whatsapp`: a business message's flags. */
const flagsOf = (info: MessageInfo): WaInfo | undefined => info.whatsapp as WaInfo | undefined;

function FlagsView({ info }: { info: MessageInfo }) {
  const flags = flagsOf(info);
  return flags ? <WhatsAppInfo info={flags} /> : null;
}

const flagsInfo: MessageKind['info'] = { shows: (info) => hasWaInfo(flagsOf(info)), View: FlagsView };

/** An agent's message (1018 text, 1019 rich, 1021 template): the business speaking, whichever agent sent it. */
const agentMessage: MessageKind = {
  Content: WhatsAppContent,
  side: 'outbound',
  // Ticks come from WhatsApp only: the other agents' read receipts mean nothing to the customer.
  // A clock until the Graph API accepted it.
  deliveryIcon: (message: WaMessage) => waDeliveryIcon(message.info) ?? 'pending',
  preview: waPreview,
  info: flagsInfo,
};

/** The customer's message (1020), under their WhatsApp name. */
const customerMessage: MessageKind = {
  Content: WhatsAppContent,
  side: 'inbound',
  preview: waPreview,
  senderIsUser: false,
  info: flagsInfo,
  sentAt: customerSentAt,
};

/**
 * WhatsApp business chats in the chat: their messages (1018-1021) and the conversation,
 * whose pane moves the agents' ticks with the 1022 statuses and offers the WhatsApp composer.
 */
export const whatsappChats: ChatPlugin = {
  messageKinds: {
    [WA_MESSAGE_TYPES.text]: agentMessage,
    [WA_MESSAGE_TYPES.rich]: agentMessage,
    [WA_MESSAGE_TYPES.template]: agentMessage,
    [WA_MESSAGE_TYPES.inbound]: customerMessage,
  },
  conversationKinds: [{ owns: isBusinessSession, title: customerName, Mark: WhatsAppMark, mayBePublic: false, Pane: BusinessChatPane }],
};
