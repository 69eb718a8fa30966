// What the app shell uses of the login (the session itself lives in src/shared/session).
export { installAuthInterceptors } from './apiAuth';
export { LoginDialogHost } from './LoginDialog';
export { SwitchAccountHost } from './SwitchAccountDialog';
