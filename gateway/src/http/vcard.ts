// A person's work contact as a vCard 4.0 (RFC 6350) that address books import: names, organization and
// division, title, work email and office phone. Written here rather than with a library: the card has seven
// properties, and what matters (escaping, CRLF, folding at 75 octets without splitting a UTF-8 character) is a few
// lines, tested by parsing the card back.

export interface VCardContact {
  firstName: string;
  lastName: string;
  title: string | null;
  organizationName: string | null;
  divisionName: string | null;
  workEmail: string;
  officePhone: string | null;
}

/** RFC 6350 §3.2: a line is at most 75 octets, not counting its CRLF; longer ones go on after CRLF and a space. */
const LINE_OCTETS = 75;
const CRLF = '\r\n';

/**
 * A text value escaped (RFC 6350 §3.4): backslash, comma and semicolon with a backslash, a line break as `\n`.
 * Other control characters have no place in a name or title and are dropped.
 */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n|\r|\n/g, '\n')
    .replace(/[^\P{Cc}\n]/gu, '')
    .replace(/[\\,;\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** A content line folded into lines of at most 75 octets, each continuation starting with one space. */
export function foldLine(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > LINE_OCTETS) {
      lines.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(CRLF);
}

/**
 * The office phone as a `tel:` URI when it is a North American number (10 digits, or 11 starting with 1, as the
 * product stores them: '(916) 555-0100'); null for anything else, which is then written as text.
 */
export function telUri(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10 || /[^\d\s().+-]/.test(phone)) return null;
  return `tel:+1-${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
}

/** The vCard of one contact: CRLF line endings, folded lines, empty properties left out. */
export function vCard(contact: VCardContact): string {
  const fullName = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
  const lines = ['BEGIN:VCARD', 'VERSION:4.0', `FN:${escapeText(fullName)}`];
  lines.push(`N:${escapeText(contact.lastName)};${escapeText(contact.firstName)};;;`);
  if (contact.organizationName) {
    const units = contact.divisionName ? `;${escapeText(contact.divisionName)}` : '';
    lines.push(`ORG:${escapeText(contact.organizationName)}${units}`);
  }
  if (contact.title) lines.push(`TITLE:${escapeText(contact.title)}`);
  if (contact.workEmail) lines.push(`EMAIL;TYPE=work:${escapeText(contact.workEmail)}`);
  if (contact.officePhone) {
    const uri = telUri(contact.officePhone);
    lines.push(
      uri
        ? `TEL;TYPE=work,voice;VALUE=uri:${uri}`
        : `TEL;TYPE=work,voice;VALUE=text:${escapeText(contact.officePhone)}`,
    );
  }
  lines.push('END:VCARD');
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** 'First-Last.vcf': the names with runs of spaces as one hyphen and characters no file name may hold left out. */
export function vCardFileName(contact: Pick<VCardContact, 'firstName' | 'lastName'>): string {
  const name = [contact.firstName, contact.lastName]
    .join(' ')
    .replace(/[\p{Cc}/\\:*?"<>|]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
  return `${name || 'contact'}.vcf`;
}
