// Hands a file fetched by script to the browser as a download (the directory's CSV, a profile's vCard). Member-only
// files cannot be plain links: the apps authenticate with a token in a header, never a cookie, so the file is
// fetched with it, then saved through an object URL clicked on a link that is never shown.

/** The file name a Content-Disposition header gives (its UTF-8 filename* first), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed percent-encoding: the plain name below will do.
    }
  }
  return (
    /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ??
    /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1] ??
    null
  );
}

/** How long the object URL lives after the click: long enough for every browser to start the download. */
const REVOKE_AFTER_MS = 10_000;

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
