import { createIntl } from 'react-intl';
import { INCIDENT_MESSAGES, INCIDENT_TYPE_INFO, INCIDENT_TYPES } from '@beacon/contracts';
import { INCIDENT_TEXTS, incidentStatusName, incidentText, incidentTypeDescription, incidentTypeName } from './labels';

const english = createIntl({ locale: 'en', messages: {} });

// The server still speaks the contracts' English: the web's English must stay word for word the same.
describe("the incident words in English are the contracts' own", () => {
  it.each(Object.keys(INCIDENT_TEXTS) as (keyof typeof INCIDENT_TEXTS)[])('%s', (key) => {
    expect(incidentText(key, english)).toBe(INCIDENT_MESSAGES[key]);
  });

  it('names and describes every type as the contracts do; unknown values show as they are', () => {
    for (const t of INCIDENT_TYPES) {
      expect(incidentTypeName(t, english)).toBe(INCIDENT_TYPE_INFO[t].label);
      expect(incidentTypeDescription(t, english)).toBe(INCIDENT_TYPE_INFO[t].description);
    }
    expect(incidentTypeName('from-a-newer-release', english)).toBe('from-a-newer-release');
    expect(incidentStatusName('verified', english)).toBe('Verified');
    expect(incidentStatusName('archived', english)).toBe('archived');
  });
});
