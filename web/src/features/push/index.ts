export { NotificationsControl } from './NotificationsControl';
export { OfflineNotice } from './OfflineNotice';
export { PushBridge } from './PushBridge';
export { usePushState } from './pushState';
export { installPwa, promptInstall } from './serviceWorker';
