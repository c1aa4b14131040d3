// Title case for address, city, suite and division text, applied as the user types.

/** Small words kept lowercase unless they start the text. */
export const TITLE_CASE_SMALL_WORDS: readonly string[] = ['of', 'and', 'the'];

/**
 * Capitalises the first letter of every word; 'of', 'and', 'the' become lowercase except as the first word.
 * The rest of each word is left as typed, so 'PO', 'NW' or 'McKinley' survive, and whitespace (including a
 * trailing space while typing) is kept exactly.
 */
export function titleCase(text: string): string {
  let seenWord = false;
  return text
    .split(/(\s+)/)
    .map((token) => {
      if (token === '' || /^\s+$/.test(token)) return token;
      const first = !seenWord;
      seenWord = true;
      const lower = token.toLowerCase();
      if (TITLE_CASE_SMALL_WORDS.includes(lower)) return first ? capitalize(lower) : lower;
      return capitalize(token);
    })
    .join('');
}

function capitalize(word: string): string {
  // Take the first code point, not the first UTF-16 unit, so astral letters are not split.
  const [head = '', ...rest] = word;
  return head.toUpperCase() + rest.join('');
}
