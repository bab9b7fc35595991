import { createIntl } from 'react-intl';
import { COMMUNITY_MESSAGES, LEVELS, POST_CATEGORIES, POST_CATEGORY_INFO } from '@beacon/contracts';
import { COMMUNITY_TEXTS, communityText, levelBadge, levelName, postCategoryName } from './labels';

const english = createIntl({ locale: 'en', messages: {} });

// The server still speaks the contracts' English: the web's English must stay word for word the same.
describe("the forum's words in English are the contracts' own", () => {
  it.each(Object.keys(COMMUNITY_TEXTS) as (keyof typeof COMMUNITY_TEXTS)[])('%s', (key) => {
    expect(communityText(key, english)).toBe(COMMUNITY_MESSAGES[key]);
  });

  it('names every category and level as the contracts do', () => {
    for (const c of POST_CATEGORIES) expect(postCategoryName(c, english)).toBe(POST_CATEGORY_INFO[c].label);
    for (const l of LEVELS) expect(levelName(l.level, english)).toBe(l.name);
  });

  it('shows unknown values as they are, and the badge before and after the first points', () => {
    expect(postCategoryName('from-a-newer-release', english)).toBe('from-a-newer-release');
    expect(levelName(9, english, 'Legend')).toBe('Legend');
    expect(levelBadge({ level: 1, hasRecord: false }, english)).toBe('New Member');
    expect(levelBadge({ level: 2, levelName: 'Regular', hasRecord: true }, english)).toBe('Level 2 · Regular');
  });
});
