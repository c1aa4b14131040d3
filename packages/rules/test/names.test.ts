// Names people read and trust: stored composed (NFC), refused with invisible, control or replacement characters
// in the field's words, and folded (case, accents, invisible characters, spacing) to tell organizations apart.
import { describe, expect, it } from 'vitest';
import {
  composedName,
  foldName,
  NAME_LABELS,
  nameProblem,
  organizationExistsMessage,
  unseenCharactersMessage,
  unseenCharactersProblem,
} from '../src/index.ts';

const UNSEEN = [
  ['word joiner U+2060', 'Office of Senator Elena\u2060 Marquez'],
  ['zero-width space U+200B', 'Office\u200B of Senator'],
  ['zero-width joiner U+200D', 'Cafe\u200DPolicy'],
  ['right-to-left override U+202E', 'Budget \u202Eteg'],
  ['left-to-right isolate U+2066', '\u2066Budget'],
  ['byte order mark U+FEFF', '\uFEFFBudget'],
  ['soft hyphen U+00AD', 'Bud\u00ADget'],
  ['ANSI escape', '\u001b[31mBudget'],
  ['NUL', 'Budget\u0000'],
  ['bell', 'Budget\u0007'],
  ['DEL', 'Budget\u007F'],
  ['C1 control U+0085', 'Budget\u0085Policy'],
  ['tab', 'Budget\tPolicy'],
  ['newline', 'Budget\nPolicy'],
  ['replacement character U+FFFD', 'Budget \uFFFD'],
] as const;

describe('unseenCharactersProblem', () => {
  it.each(UNSEEN)('refuses a %s, naming the field', (_, name) => {
    expect(unseenCharactersProblem('Issue Name', name)).toBe(
      'Issue Name must not contain invisible, control or replacement characters.',
    );
  });

  it('accepts names of any script, accents composed or not, and blank (the required rule says it)', () => {
    for (const name of ['Añil 21', 'Añil 21', '加州商会', 'Ωmega', 'O’Brien-Núñez', 'محمد', '', null])
      expect(unseenCharactersProblem('First Name', name)).toBeNull();
  });
});

describe('nameProblem (organizations and divisions)', () => {
  it('refuses unseen characters before anything else, and still names without letters', () => {
    expect(nameProblem(NAME_LABELS.organization, 'Office of Senator Elena\u2060 Marquez')).toBe(
      unseenCharactersMessage(NAME_LABELS.organization),
    );
    expect(nameProblem(NAME_LABELS.division, '\u200B')).toBe(unseenCharactersMessage(NAME_LABELS.division));
    expect(nameProblem(NAME_LABELS.division, '----')).toBe(
      'Division Name must contain letters, not only numbers or symbols.',
    );
    expect(nameProblem(NAME_LABELS.organization, 'Office of Senator Elena Marquez')).toBeNull();
  });
});

describe('composedName', () => {
  it('stores "é" typed as e + U+0301 as the one character U+00E9', () => {
    expect(composedName('Cafe\u0301')).toBe('Caf\u00e9');
    expect(composedName('Caf\u00e9')).toBe('Caf\u00e9');
  });
});

describe('foldName', () => {
  it('folds case, accents, invisible characters and spacing alike', () => {
    const real = foldName('Office of Senator Elena Marquez');
    expect(real).toBe('office of senator elena marquez');
    for (const twin of [
      'OFFICE OF SENATOR ELENA MARQUEZ',
      'Office of Senator Élena Márquez',
      'Office of Senator Ele\u0301na Marquez',
      'Office of Senator Elena\u2060 Marquez',
      'Office\u200B of Senator Elena Marquez',
      '  Office   of Senator\u00a0Elena Marquez ',
    ])
      expect(foldName(twin), twin).toBe(real);
  });

  it('keeps names apart that differ in letters', () => {
    expect(foldName('Office of Senator Elena Marquez')).not.toBe(foldName('Office of Senator Elena Marques'));
    expect(foldName('加州商会')).toBe('加州商会');
  });
});

describe('organizationExistsMessage', () => {
  it('names the existing organization', () => {
    expect(organizationExistsMessage('Office of Senator Elena Marquez')).toBe(
      'An organization named "Office of Senator Elena Marquez" already exists.',
    );
  });
});
