// Written by `npm run i18n:extract` from the areas in scripts/i18n.mjs: every area's vi messages in one catalogue.
import type { Catalogue } from '../catalogue';
import app from './app/vi.json';
import common from './common/vi.json';
import errors from './errors/vi.json';
import auth from './auth/vi.json';
import alerts from './alerts/vi.json';
import warnings from './warnings/vi.json';
import offline from './offline/vi.json';
import community from './community/vi.json';
import incidents from './incidents/vi.json';
import legal from './legal/vi.json';
import faq from './faq/vi.json';
import dashboard from './dashboard/vi.json';
import map from './map/vi.json';
import traffic from './traffic/vi.json';
import landing from './landing/vi.json';
import profile from './profile/vi.json';
import store from './store/vi.json';
import premium from './premium/vi.json';
import admin from './admin/vi.json';

const catalogue: Catalogue = { ...app, ...common, ...errors, ...auth, ...alerts, ...warnings, ...offline, ...community, ...incidents, ...legal, ...faq, ...dashboard, ...map, ...traffic, ...landing, ...profile, ...store, ...premium, ...admin };
export default catalogue;
