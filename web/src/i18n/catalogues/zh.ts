// Written by `npm run i18n:extract` from the areas in scripts/i18n.mjs: every area's zh messages in one catalogue.
import type { Catalogue } from '../catalogue';
import app from './app/zh.json';
import common from './common/zh.json';
import errors from './errors/zh.json';
import auth from './auth/zh.json';
import alerts from './alerts/zh.json';
import warnings from './warnings/zh.json';
import offline from './offline/zh.json';
import community from './community/zh.json';
import incidents from './incidents/zh.json';
import legal from './legal/zh.json';
import faq from './faq/zh.json';
import dashboard from './dashboard/zh.json';
import map from './map/zh.json';
import traffic from './traffic/zh.json';
import landing from './landing/zh.json';
import profile from './profile/zh.json';
import store from './store/zh.json';
import premium from './premium/zh.json';
import admin from './admin/zh.json';

const catalogue: Catalogue = { ...app, ...common, ...errors, ...auth, ...alerts, ...warnings, ...offline, ...community, ...incidents, ...legal, ...faq, ...dashboard, ...map, ...traffic, ...landing, ...profile, ...store, ...premium, ...admin };
export default catalogue;
