import { chatKinds } from '../shared/chat/kinds';
import { reviewsInChat } from '../features/reviews';
import { offersInChat } from '../features/wallet';
import { whatsappChats } from '../features/whatsapp';

/**
 * What features add to the generic chat, which imports none of them: WhatsApp's message kinds
 * and business conversations, the Give offer bar of item chats and, once an offer was paid, the review bar.
 */
export const chatPlugins = chatKinds([whatsappChats, offersInChat, reviewsInChat]);
