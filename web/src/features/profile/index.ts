export { EditProfilePage } from './EditProfilePage';
export { ProfilePage } from './ProfilePage';
export { UserProfilePage } from './UserProfilePage';
