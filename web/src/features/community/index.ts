export { CommunityPage } from './CommunityPage';
