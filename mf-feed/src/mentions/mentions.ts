// Mentions in plain text (docs/product.md#notifications): the "@" query a member is typing, the
// people still named in a text (only those are sent), and a text cut into plain runs and "@First Last" runs
// that match a post's or comment's `mentions` (only those become links; text that merely looks like a mention
// stays text).

/** A person a post or comment names, as the gateway answers it. */
export interface Mentioned {
  profile_id: number;
  first_name: string;
  last_name: string;
}

/** What the text shows for a mentioned person. */
export const mentionText = (person: Pick<Mentioned, 'first_name' | 'last_name'>): string =>
  `@${`${person.first_name} ${person.last_name}`.trim()}`;

/** A name's letters: any script's, with apostrophes and hyphens (O'Neil, García-Ruiz). */
const NAME_PART = "\\p{L}[\\p{L}\\p{M}'’.-]*";
/**
 * "@" at the start or after a space or opening bracket, then a name's first word and, once a space is typed, a
 * second word: "@Dan", "@Dana S". The text must end there (it is the text before the caret).
 */
const QUERY = new RegExp(`(?:^|[\\s(\\[])@(${NAME_PART}(?: (?:${NAME_PART})?)?)$`, 'u');

export interface MentionQuery {
  /** Where the "@" is in the text. */
  start: number;
  /** What follows it, trimmed: the directory search. */
  search: string;
}

/** The mention being typed just before the caret, if any. */
export function mentionQueryIn(textBeforeCaret: string): MentionQuery | null {
  const match = QUERY.exec(textBeforeCaret);
  if (!match?.[1]) return null;
  return { start: textBeforeCaret.length - match[1].length - 1, search: match[1].trim() };
}

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;

/**
 * Does `text` hold `name` at `index` as a whole mention: not inside a word before ("dana@Dana Smith" is an
 * address) nor after ("@Ana Lin" is not "@Ana Li")?
 */
function wholeAt(text: string, name: string, index: number): boolean {
  const before = index === 0 ? '' : (text[index - 1] as string);
  const after = text.slice(index + name.length, index + name.length + 1);
  return !WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after);
}

function occursIn(text: string, name: string): boolean {
  for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + 1)) {
    if (wholeAt(text, name, index)) return true;
  }
  return false;
}

/** The chosen people whose "@First Last" is still in the text, each once: what the editors send. */
export function stillMentioned(text: string, chosen: readonly Mentioned[]): Mentioned[] {
  const seen = new Set<number>();
  return chosen.filter((person) => {
    if (seen.has(person.profile_id) || !occursIn(text, mentionText(person))) return false;
    seen.add(person.profile_id);
    return true;
  });
}

export type Segment = string | { person: Mentioned; text: string };

/**
 * The text as plain runs and mention runs, in order. Longer names are tried first, so "@Ana Lindqvist" wins over
 * "@Ana Lin" where both are mentioned.
 */
export function mentionSegments(text: string, mentions: readonly Mentioned[]): Segment[] {
  if (mentions.length === 0 || !text.includes('@')) return [text];
  const names = mentions
    .map((person) => ({ person, name: mentionText(person) }))
    .sort((a, b) => b.name.length - a.name.length);
  const segments: Segment[] = [];
  let plainFrom = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at < plainFrom) continue;
    const found = names.find(({ name }) => text.startsWith(name, at) && wholeAt(text, name, at));
    if (!found) continue;
    if (at > plainFrom) segments.push(text.slice(plainFrom, at));
    segments.push({ person: found.person, text: found.name });
    plainFrom = at + found.name.length;
  }
  if (plainFrom < text.length) segments.push(text.slice(plainFrom));
  return segments;
}
