// The chat's tests draw business chats as the app composes them, with WhatsApp's messages.
export { waMessage } from '../features/whatsapp/testFixtures';
