// Written by `npm run i18n:extract` from the areas in scripts/i18n.mjs: every area's es messages in one catalogue.
import type { Catalogue } from '../catalogue';
import app from './app/es.json';
import common from './common/es.json';
import errors from './errors/es.json';
import auth from './auth/es.json';
import alerts from './alerts/es.json';
import warnings from './warnings/es.json';
import offline from './offline/es.json';
import community from './community/es.json';
import incidents from './incidents/es.json';
import legal from './legal/es.json';
import faq from './faq/es.json';
import dashboard from './dashboard/es.json';
import map from './map/es.json';
import traffic from './traffic/es.json';
import landing from './landing/es.json';
import profile from './profile/es.json';
import store from './store/es.json';
import premium from './premium/es.json';
import admin from './admin/es.json';

const catalogue: Catalogue = { ...app, ...common, ...errors, ...auth, ...alerts, ...warnings, ...offline, ...community, ...incidents, ...legal, ...faq, ...dashboard, ...map, ...traffic, ...landing, ...profile, ...store, ...premium, ...admin };
export default catalogue;
