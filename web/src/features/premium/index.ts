export { PremiumPage } from './PremiumPage';
