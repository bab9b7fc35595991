export { ProfilePage } from './ProfilePage';
