// Names people read and trust (ADR 0037): organizations, divisions, issue areas and people's first and last
// names. A name is stored in Unicode's composed form (NFC), so "é" typed two ways is one name, and refuses what a
// reader cannot see or that stands for text lost: control characters (Cc, an ANSI escape among them), format
// characters (Cf: zero-width spaces and joiners, U+2060, bidi overrides such as U+202E) and U+FFFD. The browser,
// the gateway and the owning service refuse in the same words.
//
// Organizations are also told apart by their folded name (foldName): case, accents and spacing set aside, so
// "Office of Senator Élena  MARQUEZ" cannot sit beside "Office of Senator Elena Marquez".

/** Characters a name never holds: controls, invisible format characters, the replacement character. */
const UNSEEN = /[\p{Cc}\p{Cf}\uFFFD]/u;
const UNSEEN_ALL = /[\p{Cc}\p{Cf}\uFFFD]/gu;
const MARKS = /\p{M}/gu;

export const unseenCharactersMessage = (label: string): string =>
  `${label} must not contain invisible, control or replacement characters.`;

export const organizationExistsMessage = (name: string): string =>
  `An organization named "${name}" already exists.`;

/** The name in composed form (NFC), as it is stored and compared. */
export const composedName = (name: string): string => name.normalize('NFC');

/** The refusal for a name holding a control, format or replacement character, or null. */
export function unseenCharactersProblem(label: string, name: string | null | undefined): string | null {
  return name && UNSEEN.test(name) ? unseenCharactersMessage(label) : null;
}

/**
 * The key two spellings of one name share: composed, unseen characters dropped, accents and other marks
 * stripped (NFD), lower case, every run of spaces one space, trimmed. "Café  Policy" and "CAFE POLICY" fold alike.
 */
export function foldName(name: string): string {
  return name
    .normalize('NFC')
    .replace(UNSEEN_ALL, '')
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
