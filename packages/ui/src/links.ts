// How contact details become links on the screens: a web address safe to put in an href (http(s) only), and a
// tel: link from a phone as written.

/** An href that is safe to render: http(s) only, a bare host gets https://; null for anything else. */
export function safeHref(url: string | null | undefined): string | null {
  const value = url?.trim() ?? '';
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  return /^[a-z][a-z0-9+.-]*:/i.test(value) ? null : `https://${value}`;
}

/** A tel: link for the phone's digits (a leading + kept). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
