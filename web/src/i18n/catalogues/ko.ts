// Written by `npm run i18n:extract` from the areas in scripts/i18n.mjs: every area's ko messages in one catalogue.
import type { Catalogue } from '../catalogue';
import app from './app/ko.json';
import common from './common/ko.json';
import errors from './errors/ko.json';
import auth from './auth/ko.json';
import alerts from './alerts/ko.json';
import warnings from './warnings/ko.json';
import offline from './offline/ko.json';
import community from './community/ko.json';
import incidents from './incidents/ko.json';
import legal from './legal/ko.json';
import faq from './faq/ko.json';
import dashboard from './dashboard/ko.json';
import map from './map/ko.json';
import traffic from './traffic/ko.json';
import landing from './landing/ko.json';
import profile from './profile/ko.json';
import store from './store/ko.json';
import premium from './premium/ko.json';
import admin from './admin/ko.json';

const catalogue: Catalogue = { ...app, ...common, ...errors, ...auth, ...alerts, ...warnings, ...offline, ...community, ...incidents, ...legal, ...faq, ...dashboard, ...map, ...traffic, ...landing, ...profile, ...store, ...premium, ...admin };
export default catalogue;
