// Written by `npm run i18n:extract` from the areas in scripts/i18n.mjs: every area's fr messages in one catalogue.
import type { Catalogue } from '../catalogue';
import app from './app/fr.json';
import common from './common/fr.json';
import errors from './errors/fr.json';
import auth from './auth/fr.json';
import alerts from './alerts/fr.json';
import warnings from './warnings/fr.json';
import offline from './offline/fr.json';
import community from './community/fr.json';
import incidents from './incidents/fr.json';
import legal from './legal/fr.json';
import faq from './faq/fr.json';
import dashboard from './dashboard/fr.json';
import map from './map/fr.json';
import traffic from './traffic/fr.json';
import landing from './landing/fr.json';
import profile from './profile/fr.json';
import store from './store/fr.json';
import premium from './premium/fr.json';
import admin from './admin/fr.json';

const catalogue: Catalogue = { ...app, ...common, ...errors, ...auth, ...alerts, ...warnings, ...offline, ...community, ...incidents, ...legal, ...faq, ...dashboard, ...map, ...traffic, ...landing, ...profile, ...store, ...premium, ...admin };
export default catalogue;
