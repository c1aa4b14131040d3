// Content-Disposition for a download (RFC 6266): the file name quoted as plain ASCII for every client, and in
// full as UTF-8 (RFC 8187's filename*) for those that read it, so 'Zoë-Ng.vcf' stays 'Zoë-Ng.vcf' where it can.

/** RFC 8187 attr-chars pass through; every other UTF-8 octet is percent-encoded. */
const encodeExtValue = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The name in ASCII: accents dropped ('é' → 'e'), other characters as '_', quotes and backslashes left out. */
const asciiName = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/["\\]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');

export function attachmentDisposition(fileName: string): string {
  const ascii = asciiName(fileName);
  const disposition = `attachment; filename="${ascii}"`;
  return ascii === fileName ? disposition : `${disposition}; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
