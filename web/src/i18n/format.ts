import { currentIntl } from './I18nProvider';
import { usesMiles } from './languages';

const KM_PER_MILE = 1.609344;

/**
 * A distance given in kilometres, in the reader's unit: miles where road signs use them (en-US, en-GB), kilometres
 * elsewhere; "2.5 mi", "4 km", "350 m" below a kilometre where kilometres are used.
 */
export function formatDistance(km: number, intl = currentIntl()): string {
  if (usesMiles(intl.locale)) {
    const miles = km / KM_PER_MILE;
    return intl.formatNumber(miles, { style: 'unit', unit: 'mile', maximumFractionDigits: miles < 10 ? 1 : 0 });
  }
  if (km < 1) return intl.formatNumber(Math.round(km * 1000), { style: 'unit', unit: 'meter' });
  return intl.formatNumber(km, { style: 'unit', unit: 'kilometer', maximumFractionDigits: km < 10 ? 1 : 0 });
}
