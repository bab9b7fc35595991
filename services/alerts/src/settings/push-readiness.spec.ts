import { pushReadiness } from './push-readiness';

describe('pushReadiness: who a push would reach, said plainly', () => {
  const none = { browsers: 0, people: 0, subscribed: 0, failing: 0 };

  it('says nobody would receive a push when no browser is subscribed, or none would get one', () => {
    expect(pushReadiness(none, 10)).toBe('no browser is subscribed yet: nobody would receive a push');
    expect(pushReadiness({ ...none, subscribed: 2 }, 10)).toBe(
      '2 browsers are subscribed but none would get a push (push turned off in their preferences, or past 10 browsers per person): nobody would receive a push',
    );
  });

  it('counts the browsers and their people, and says why the others would not get one and how many failed', () => {
    expect(pushReadiness({ browsers: 3, people: 2, subscribed: 3, failing: 0 }, 10)).toBe('3 browsers of 2 people subscribed');
    expect(pushReadiness({ browsers: 1, people: 1, subscribed: 1, failing: 1 }, 10)).toBe('1 browser of 1 person subscribed; 1 of them failed its last push');
    expect(pushReadiness({ browsers: 1204, people: 1000, subscribed: 1206, failing: 2 }, 1)).toBe(
      '1,204 browsers of 1,000 people subscribed; 2 more subscribed browsers would not get one (push turned off in their preferences, or past 1 browser per person); 2 of them failed their last push',
    );
  });
});
