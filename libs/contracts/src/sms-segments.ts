import { SegmentedMessage } from 'sms-segments-calculator';

/**
 * How many SMS segments a text takes (issue #19), for the alerts service's limit and the admin console's counter. A
 * module of its own, re-exported by languages.ts, because the counter it wraps is large: the web app loads it only with
 * the admin console (issue #35), and only this module may import it.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Characters as a person counts them (an emoji is one). */
  characters: number;
  /** Code units the encoding spends: septets in GSM-7 (an extension character such as € is two), UTF-16 units in UCS-2. */
  units: number;
  segments: number;
  /** How many units each segment holds: 160 (GSM-7) or 70 (UCS-2) alone, 153 or 67 once concatenated. */
  perSegment: number;
}

/**
 * How a text goes out as SMS (3GPP TS 23.038): GSM-7 when every character is in the GSM 03.38 basic set or its
 * extension table (extension characters take two septets), else UCS-2 (a character outside the BMP, e.g. an emoji,
 * is a surrogate pair: two units). One segment holds 160 septets or 70 units; a longer text is split into segments of
 * 153 or 67 (the rest of each carries the concatenation header), never between an escape and its character or the
 * halves of a surrogate pair. Counted by sms-segments-calculator (Twilio's), whose rules the unit spec pins down.
 */
export function smsSegments(text: string): SmsSegments {
  const m = new SegmentedMessage(text, 'auto');
  const encoding: SmsEncoding = m.getEncodingName() === 'GSM-7' ? 'GSM-7' : 'UCS-2';
  const units = encoding === 'GSM-7' ? m.numberOfCharacters : text.length;
  const segments = text.length === 0 ? 0 : m.segmentsCount;
  const single = encoding === 'GSM-7' ? 160 : 70;
  return { encoding, characters: [...text].length, units, segments, perSegment: segments > 1 ? single - (encoding === 'GSM-7' ? 7 : 3) : single };
}
