export { ModerationPage } from './ModerationPage';
