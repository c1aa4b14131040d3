// Names of organizations and divisions: a name has letters (any script) and is not a number written in
// scientific or hex notation, so "0", "1e+308", "0x1F" or "----" is refused wherever one is entered, and holds
// no invisible, control or replacement character (names.ts); the browser and the server say it in the same words.
import { unseenCharactersProblem } from './names.ts';

const LETTER = /\p{L}/u;
/** Numbers whose notation holds letters: exponents (1e+308) and hex, binary or octal literals (0x1F). */
const NUMBER_NOTATION = /^[-+]?(?:\d[\d\s,._]*(?:e[-+]?\d+)?|0x[\da-f]+|0b[01]+|0o[0-7]+)$/i;

export const NAME_LABELS = {
  organization: 'Organization Name',
  division: 'Division Name',
} as const;

/** True when the name holds a letter of any alphabet and is more than a number ('3M' and 'Añil 21' are). */
export const isName = (name: string): boolean => LETTER.test(name) && !NUMBER_NOTATION.test(name.trim());

export const notANameMessage = (label: string): string =>
  `${label} must contain letters, not only numbers or symbols.`;

/** The refusal for a name that is not one, or null; a blank name is the required-fields rule's to report. */
export function nameProblem(label: string, name: string | null | undefined): string | null {
  if (!name || name.trim() === '') return null;
  return unseenCharactersProblem(label, name) ?? (isName(name) ? null : notANameMessage(label));
}
