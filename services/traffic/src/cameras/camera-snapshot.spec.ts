import { renderSnapshotSvg } from './camera-snapshot';

describe('renderSnapshotSvg', () => {
  const at = new Date('2024-03-05T22:07:09Z'); // 3:07 PM in Phoenix (MST all year)

  it('burns the camera caption and the Phoenix time into the frame', () => {
    const svg = renderSnapshotSvg({ roadway: 'I-10', direction: 'Eastbound', description: 'I-10 EB at 7th St' }, at, 'cam-1');
    expect(svg).toContain('>I-10 Eastbound</text>');
    expect(svg).toContain('>I-10 EB at 7th St</text>');
    expect(svg).toContain('03/05/2024 15:07:09 MST');
    expect(svg.startsWith('<?xml')).toBe(true);
  });

  it('escapes text from the database', () => {
    const svg = renderSnapshotSvg({ roadway: '<script>alert(1)</script>', direction: null, description: 'A & "B"' }, at, 'cam-2');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('A &amp; &quot;B&quot;');
  });

  it('moves the traffic from one minute to the next, the same for everyone within a minute', () => {
    const subject = { roadway: 'I-17', direction: null, description: null };
    const a = renderSnapshotSvg(subject, at, 'cam-3');
    expect(renderSnapshotSvg(subject, new Date(at.getTime() + 20_000), 'cam-3').replace(/\d\d MST/, '')).toBe(a.replace(/\d\d MST/, ''));
    expect(renderSnapshotSvg(subject, new Date(at.getTime() + 60_000), 'cam-3')).not.toBe(a);
  });
});
