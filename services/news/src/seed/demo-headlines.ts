// Demo headlines for the one-machine default, which has no internet to fetch feeds from. Fictional
// publications and stories; links point at example.org.
import type { Headline } from '../domain/headline.ts';
import type { HeadlineRepository } from '../domain/ports.ts';

const STORIES: ReadonlyArray<Omit<Headline, 'createdAt' | 'logo'>> = [
  {
    publication: 'The Capitol Ledger',
    title: 'Budget conference committee reaches deal on transit operations funding',
    snippet:
      'Negotiators from both houses agreed late Thursday on a two-year bridge for regional transit operators, with reporting requirements attached.',
    url: 'https://example.org/capitol-ledger/budget-deal-transit-operations',
  },
  {
    publication: 'Golden State Wire',
    title: 'Assembly panel advances wildfire insurance reform after six-hour hearing',
    snippet:
      'The Insurance Committee sent the measure to Appropriations on a 9-4 vote, with amendments narrowing the catastrophe-model provisions.',
    url: 'https://example.org/golden-state-wire/wildfire-insurance-reform-advances',
  },
  {
    publication: 'Statehouse Weekly',
    title: 'New agency secretary names deputy for broadband deployment',
    snippet:
      'The appointment fills a post vacant since spring and comes as the middle-mile network enters its final construction phase.',
    url: 'https://example.org/statehouse-weekly/broadband-deputy-named',
  },
  {
    publication: 'Delta Civic Report',
    title: 'Water board schedules public workshops on groundwater allocation rules',
    snippet:
      'Four workshops across the Central Valley will take comment on the draft framework before the board votes in February.',
    url: 'https://example.org/delta-civic-report/groundwater-workshops',
  },
  {
    publication: 'The Capitol Ledger',
    title: 'Senate leader outlines housing package priorities for the new session',
    snippet:
      'Streamlined permitting for infill projects and a revolving fund for moderate-income housing top the list released Monday.',
    url: 'https://example.org/capitol-ledger/senate-housing-priorities',
  },
  {
    publication: 'Pacific Policy Journal',
    title: 'Analyst: state revenue running ahead of projections through October',
    snippet:
      "Personal income tax withholding grew faster than forecast, the nonpartisan analyst's monthly update shows, though capital gains remain uncertain.",
    url: 'https://example.org/pacific-policy-journal/revenue-ahead-of-projections',
  },
  {
    publication: 'Golden State Wire',
    title: 'Coalition of counties asks for flexibility in behavioral health funding',
    snippet:
      'County associations say the new allocation formula leaves rural counties short and propose a phase-in over three fiscal years.',
    url: 'https://example.org/golden-state-wire/counties-behavioral-health-funding',
  },
  {
    publication: 'Statehouse Weekly',
    title: 'Ethics commission adopts updated lobbying disclosure forms',
    snippet:
      'Lobbyist employers will report activity by bill number starting next quarter under the rules approved unanimously on Thursday.',
    url: 'https://example.org/statehouse-weekly/lobbying-disclosure-forms',
  },
  {
    publication: 'Delta Civic Report',
    title: 'Transportation commission approves corridor plan for Highway 99',
    snippet:
      'The plan prioritizes safety upgrades at twelve interchanges and sets aside funds for freight rail connections near Stockton.',
    url: 'https://example.org/delta-civic-report/highway-99-corridor-plan',
  },
  {
    publication: 'Pacific Policy Journal',
    title: 'Labor federation releases scorecard ahead of interim hearings',
    snippet:
      'The annual scorecard grades members on workplace safety, heat standards and apprenticeship bills from the last session.',
    url: 'https://example.org/pacific-policy-journal/labor-scorecard',
  },
  {
    publication: 'The Capitol Ledger',
    title: "Governor's office announces clean energy permitting task force",
    snippet:
      'Representatives from five agencies will recommend ways to cut review times for transmission lines and storage projects by spring.',
    url: 'https://example.org/capitol-ledger/clean-energy-permitting-task-force',
  },
  {
    publication: 'Golden State Wire',
    title: 'Community colleges seek capital funds for seismic retrofits',
    snippet:
      'The chancellor’s office request covers 41 buildings on 19 campuses identified in the latest facilities assessment.',
    url: 'https://example.org/golden-state-wire/community-college-seismic-retrofits',
  },
];

/** Stores the demo headlines when the news service has none yet; answers how many it stored. */
export async function seedDemoHeadlines(repository: HeadlineRepository, now = new Date()): Promise<number> {
  if ((await repository.latest(1)).length > 0) return 0;
  const minutes = 60_000;
  return repository.addNew(
    STORIES.map((story, index) => ({
      ...story,
      logo: '',
      createdAt: new Date(now.getTime() - index * 47 * minutes),
    })),
  );
}
