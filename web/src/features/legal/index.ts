export { ContactPage, PrivacyPage, TermsPage } from './LegalPages';
