import { chatKinds } from '../shared/chat/kinds';
import { offersInChat } from '../features/wallet';
import { whatsappChats } from '../features/whatsapp';

/**
 * What features add to the generic chat, which imports none of them: WhatsApp's message kinds
 * and business conversations, the Give offer bar of item chats.
 */
export const chatPlugins = chatKinds([whatsappChats, offersInChat]);
