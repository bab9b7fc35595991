import { emptyCounts, type AdminAlert } from '@beacon/contracts';
import { csvCell, historyCsv, historyCsvFileName, historyExportFileName, toCsv } from './history-csv';

/** Reads back what toCsv wrote (quoted cells, doubled quotes, CRLF rows) so tests compare cell values. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    expect(text[i]).toBe('"');
    let cell = '';
    i++;
    for (;;) {
      if (text[i] === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (text[i] === '"') {
        i++;
        break;
      }
      cell += text[i++];
    }
    row.push(cell);
    if (text[i] === ',') {
      i++;
      continue;
    }
    expect(text.slice(i, i + 2)).toBe('\r\n');
    i += 2;
    rows.push(row);
    row = [];
  }
  return rows;
}

function alert(over: Partial<AdminAlert>): AdminAlert {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Flood warning',
    message: 'Move to higher ground now please',
    version: 1,
    revision: 1,
    allClear: null,
    translations: {},
    severity: 'high',
    priority: 'high',
    category: 'weather',
    type: 'Weather',
    status: 'active',
    locationName: null,
    lat: null,
    lng: null,
    radiusKm: 50,
    area: null,
    channels: ['push', 'sms'],
    createdAt: '2024-03-05T15:07:00Z',
    expiresAt: null,
    createdBy: null,
    updatedAt: '2024-03-05T15:07:00Z',
    sentAt: null,
    source: 'admin',
    recipients: 2,
    summary: { push: { ...emptyCounts(), delivered: 1 }, sms: { ...emptyCounts(), sent: 1 } },
    // the SMS was only accepted by its provider: no receipt yet (issue #39)
    deliveryLabel: 'Sent to provider',
    successRate: 100,
    responses: { safe: 0, needHelp: 0, helpOpen: 0 },
    reminder: null,
    concerned: null,
    createdByEmail: null,
    sendAt: null,
    approval: null,
    breakGlass: null,
    groups: [],
    ...over,
  };
}

describe('csvCell', () => {
  it('quotes every value and doubles inner quotes', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd', '=HYPERLINK("http://evil")'])('prefixes the formula-like %j with a single quote', (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(parseCsv(`${cell}\r\n`)[0][0]).toBe(`'${value}`);
  });

  it('leaves text that only contains those characters further in alone', () => {
    expect(csvCell('a=b+c-d@e')).toBe('"a=b+c-d@e"');
  });
});

describe('toCsv', () => {
  it('ends every row with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('"a","b"\r\n"c","d"\r\n');
  });
});

describe('historyCsv', () => {
  it('writes the spec columns and one row per alert of the page, in order', () => {
    const rows = parseCsv(
      historyCsv([
        alert({}),
        alert({ id: 'b', title: '=cmd|"/C calc"!A0', type: 'Amber Alert', priority: 'low', severity: 'low', channels: ['push'], deliveryLabel: 'Partial' }),
        alert({ id: 'c', status: 'cancelled', deliveryLabel: 'Pending', priority: 'medium', severity: 'medium' }),
      ]),
    );
    expect(rows[0]).toEqual(['Date', 'Type', 'Title', 'Priority', 'Channels', 'Status']);
    expect(rows).toHaveLength(4);
    expect(rows[1].slice(1)).toEqual(['Weather', 'Flood warning', 'HIGH', 'Web Push, SMS', 'Sent to provider']);
    expect(rows[1][0]).toMatch(/^Mar 5, 2024 \d{1,2}:\d{2} (AM|PM)$/);
    expect(rows[2].slice(1)).toEqual(['Amber Alert', `'=cmd|"/C calc"!A0`, 'LOW', 'Web Push', 'Partial']);
    expect(rows[3][3]).toBe('MEDIUM');
    expect(rows[3][5]).toBe('Cancelled');
  });

  it('names the voice channel, and says Sent to provider until receipts say delivered (issue #39)', () => {
    const rows = parseCsv(
      historyCsv([
        alert({
          channels: ['sms', 'voice'],
          summary: { sms: { ...emptyCounts(), sent: 6 }, voice: { ...emptyCounts(), sent: 2 } },
          deliveryLabel: 'Sent to provider',
        }),
        alert({
          id: 'r',
          channels: ['sms', 'voice'],
          summary: { sms: { ...emptyCounts(), delivered: 6 }, voice: { ...emptyCounts(), delivered: 2 } },
          deliveryLabel: 'All Delivered',
        }),
      ]),
    );
    expect(rows[1].slice(4)).toEqual(['SMS, Voice call', 'Sent to provider']);
    expect(rows[2].slice(4)).toEqual(['SMS, Voice call', 'All Delivered']);
  });

  it('writes CRITICAL for a critical alert, not the HIGH of its stored priority', () => {
    const rows = parseCsv(historyCsv([alert({ priority: 'high', severity: 'critical' })]));
    expect(rows[1][3]).toBe('CRITICAL');
  });

  it("writes 'Expired' and 'Draft' rather than the delivery label once an alert no longer goes out", () => {
    const rows = parseCsv(
      historyCsv([alert({ id: 'e', status: 'expired', deliveryLabel: 'All Delivered' }), alert({ id: 'd', status: 'draft', deliveryLabel: 'Pending' })]),
    );
    expect(rows.slice(1).map((r) => r[5])).toEqual(['Expired', 'Draft']);
  });

  it('writes only the header for an empty page', () => {
    expect(parseCsv(historyCsv([]))).toEqual([['Date', 'Type', 'Title', 'Priority', 'Channels', 'Status']]);
  });
});

describe('historyCsvFileName', () => {
  it('is alert-history-<ISO date>.csv', () => {
    expect(historyCsvFileName(new Date('2024-03-05T23:30:00Z'))).toBe('alert-history-2024-03-05.csv');
  });

  it("is not the name of the server's export of every alert, whose columns differ (one name per export)", () => {
    const day = new Date('2024-03-05T23:30:00Z');
    expect(historyExportFileName(day)).toBe('alert-history-all-2024-03-05.csv');
    expect(historyExportFileName(day)).not.toBe(historyCsvFileName(day));
  });
});
