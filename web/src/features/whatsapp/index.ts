import { importPart } from '../../shared/staleBuild';
export { whatsappChats } from './chatPlugin';

// A loader, not an export: the app imports this index up front (the chat plug-in), and the
// page exported here would join the main bundle instead of loading on demand.
export const loadChannelPage = () => importPart(async () => (await import('./ChannelPage')).ChannelPage);
