import type { IntlShape } from 'react-intl';
import { STORE_CURRENCY } from '@beacon/contracts';
import { currentIntl } from '@/i18n';

/** US dollars (the store sells in USD) in the reader's locale: 1234.5 -> '$1,234.50' in English, '1234,50 US$' in Spanish. */
export const formatPrice = (usd: number, intl: IntlShape = currentIntl()) => intl.formatNumber(usd, { style: 'currency', currency: STORE_CURRENCY });
