import { STORE_CURRENCY, STORE_LOCALE } from '@beacon/contracts';

const PRICE = new Intl.NumberFormat(STORE_LOCALE, { style: 'currency', currency: STORE_CURRENCY });

/** US dollars in en-US: 1234.5 -> '$1,234.50'. */
export const formatPrice = (usd: number) => PRICE.format(usd);
