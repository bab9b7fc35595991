import { maskContacts, recordChannelError } from './channel-errors';

describe('maskContacts', () => {
  it("masks the addresses and numbers a provider's refusal may quote, and keeps its codes", () => {
    expect(maskContacts('SMTP: 550 5.1.1 <bob.smith@example.com>: Recipient address rejected')).toBe('SMTP: 550 5.1.1 <[address]>: Recipient address rejected');
    expect(maskContacts("Twilio error 21211: The 'To' number +1 602 555 0101 is not valid (HTTP 400)")).toBe(
      "Twilio error 21211: The 'To' number [number] is not valid (HTTP 400)",
    );
  });
});

describe('recordChannelError', () => {
  it('writes the masked text, and a failed write does not fail the batch', async () => {
    const written: [string, string][] = [];
    await recordChannelError({ recordError: async (c: string, m: string) => void written.push([c, m]) } as never, 'email', 'SMTP: 550 <a@b.test> rejected');
    expect(written).toEqual([['email', 'SMTP: 550 <[address]> rejected']]);
    await expect(recordChannelError({ recordError: async () => Promise.reject(new Error('database down')) } as never, 'sms', 'x')).resolves.toBeUndefined();
  });
});
