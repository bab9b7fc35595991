import { ADMIN_ALERT_TYPES, ADMIN_TYPE_CATEGORY, ALERT_CATEGORIES, SEVERITIES } from '@beacon/contracts';
import { CAP_SEVERITY, capCategory, capUrgency } from './cap-vocabulary';

describe('CAP 1.2 mapping', () => {
  it('files every admin type under the CAP category a CAP consumer expects', () => {
    const byType = Object.fromEntries(ADMIN_ALERT_TYPES.map((t) => [t, capCategory(ADMIN_TYPE_CATEGORY[t], t)]));
    expect(byType).toEqual({
      Emergency: 'Safety',
      Weather: 'Met',
      'Amber Alert': 'Rescue',
      'Terror Alert': 'Security',
      Traffic: 'Transport',
      'Public Safety': 'Safety',
    });
  });

  it('maps every stored category, whatever the type string', () => {
    expect(ALERT_CATEGORIES.map((c) => capCategory(c, 'Test'))).toEqual(['Met', 'Transport', 'Security', 'Safety', 'Health']);
  });

  it('maps severities to CAP severities and only critical to Immediate urgency', () => {
    expect(SEVERITIES.map((s) => CAP_SEVERITY[s])).toEqual(['Minor', 'Moderate', 'Severe', 'Extreme']);
    expect(SEVERITIES.map(capUrgency)).toEqual(['Expected', 'Expected', 'Expected', 'Immediate']);
  });
});
