export { EditProfilePage } from './EditProfilePage';
export { ProfilePage } from './ProfilePage';
