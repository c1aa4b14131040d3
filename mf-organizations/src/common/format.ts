// How addresses, phones and links read on the organization screens. The formatting rules themselves
// (phone format) come from @rotunda/rules; safe hrefs and tel: links from @rotunda/ui.
import { formatPhone } from '@rotunda/rules';
import type { StoredAddress } from '../api';

const clean = (value: string | null | undefined): string => value?.trim() ?? '';

/** 'street, suite' and 'City, ST' (with the ZIP when `withZip`); empty lines are left out. */
export function addressLines(parts: StoredAddress, { withZip = false } = {}): string[] {
  const street = [clean(parts.street_address), clean(parts.suite_number)].filter(Boolean).join(', ');
  const region = [clean(parts.state), withZip ? clean(parts.zip_code) : ''].filter(Boolean).join(' ');
  const place = [clean(parts.city), region].filter(Boolean).join(', ');
  return [street, place].filter(Boolean);
}

/** The phone as shown: (xxx) xxx-xxxx when it has 10 digits, otherwise as stored; '' when none. */
export function displayPhone(phone: string | null | undefined): string {
  return formatPhone(clean(phone));
}

/** A link's address without the scheme and trailing slash, as people read it: 'example.org/about'. */
export function displayUrl(url: string): string {
  return url
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/$/, '');
}
