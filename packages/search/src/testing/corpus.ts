// The search contract's index definition and corpus (contract.ts): twenty organizations chosen to separate right
// from almost-right, and the orders they are expected in.
import type { SearchDocument, SearchIndexDefinition } from '../port.ts';

/** The field definition makeIndex must give its adapter: the corpus below uses exactly these. */
export const CONTRACT_FIELDS: SearchIndexDefinition = {
  textFields: ['name', 'city'],
  keywordFields: ['group', 'tags'],
  sortFields: [
    { name: 'name', type: 'text' },
    { name: 'score', type: 'number' },
  ],
  stored: true,
};

function organization(
  id: string,
  name: string,
  city: string,
  group: string,
  tags: string[],
  score: number | undefined,
): SearchDocument {
  // The sort name is given in its display case on purpose: ordering must not depend on case.
  return {
    id,
    text: { name, city },
    keywords: { group: [group], tags },
    sort: score === undefined ? { name } : { name, score },
  };
}

/** Twenty organizations chosen to separate right from almost-right (cross-field words, ties, metacharacters). */
export const CONTRACT_CORPUS: readonly SearchDocument[] = [
  organization('d01', 'California Nurses Association', 'Sacramento', 'Unions', ['health', 'labor'], 40),
  organization('d02', 'Nurses United', 'Oakland', 'Unions', ['health'], 25),
  organization(
    'd03',
    'Association of California Water Agencies',
    'Sacramento',
    'Associations',
    ['water'],
    25,
  ),
  organization(
    'd04',
    'Department of Water Resources',
    'Sacramento',
    'Agencies',
    ['water', 'environment'],
    10,
  ),
  organization('d05', 'José Ramírez Consulting', 'San José', 'Lobbyists', ['health'], 5),
  organization('d06', 'JOSÉ ALVAREZ & ASSOCIATES', 'Fresno', 'Lobbyists', [], 5),
  organization('d07', '100% Club', 'Los Angeles', 'Other', ['charity'], 1),
  organization('d08', 'Under_Score Partners', 'San Diego', 'Lobbyists', [], 5),
  // Styled in lower case: sorted by its letters, not before or after every capitalized name.
  organization('d09', 'back\\slash strategies', 'Long Beach', 'Lobbyists', ['labor'], 12),
  organization('d10', 'Rotunda', 'Sacramento', 'Other', [], undefined),
  organization('d11', 'Office of the Governor', 'Sacramento', "Governor's Office", ['health', 'water'], 30),
  organization('d12', 'Assembly Health Committee', 'Sacramento', 'Legislature', ['health'], 18),
  organization('d13', 'Senate Labor Committee', 'Sacramento', 'Legislature', ['labor'], 18),
  organization('d14', 'Campaign for Clean Water', 'Los Angeles', 'Campaigns', ['water', 'environment'], 2),
  organization('d15', 'San Francisco Teachers Union', 'San Francisco', 'Unions', ['education', 'labor'], 22),
  // Name and city glued together would read '…coastalameda' and falsely contain 'coastal'.
  organization('d16', 'Growers of the Gold Coast', 'Alameda', 'Associations', ['agriculture'], 8),
  organization('d17', 'Coastal Commission', 'San Francisco', 'Agencies', ['environment'], 14),
  organization('d18', 'Twin Peaks Advocacy', 'Fresno', 'Lobbyists', ['health'], 7),
  organization('d19', 'Twin Peaks Advocacy', 'Fresno', 'Lobbyists', ['water'], 7),
  organization('d20', 'Öko Institute', 'Berkeley', 'Other', ['environment'], 3),
];

/** Every id, ascending: the order when no sort is asked. */
export const ALL_IDS = CONTRACT_CORPUS.map((document) => document.id);
/** Every id by name ascending, case-insensitively, ties by id. */
export const BY_NAME = [
  'd07', // 100% club
  'd12', // assembly health committee
  'd03', // association of california water agencies
  'd09', // back\slash strategies
  'd01', // california nurses association
  'd14', // campaign for clean water
  'd17', // coastal commission
  'd04', // department of water resources
  'd16', // growers of the gold coast
  'd06', // josé alvarez & associates (upper case in the corpus)
  'd05', // josé ramírez consulting
  'd02', // nurses united
  'd11', // office of the governor
  'd10', // rotunda
  'd15', // san francisco teachers union
  'd13', // senate labor committee
  'd18', // twin peaks advocacy (tie, id ascending)
  'd19', // twin peaks advocacy
  'd08', // under_score partners
  'd20', // öko institute (code point order: after ASCII)
];
