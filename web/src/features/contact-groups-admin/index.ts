// The console's contact groups (issue #42): named lists of Beacon users and external contacts, under /admin (staff
// read them, administrators change them). Loaded with the console's own chunk only (app/admin-area.tsx).
export { ContactGroupsPage } from './ContactGroupsPage';
export { ContactGroupPage } from './ContactGroupPage';
