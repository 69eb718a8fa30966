export { CreateGroupPage } from './CreateGroupPage';
export { GroupPage } from './GroupPage';
export { GroupSettingsPage } from './GroupSettingsPage';
