// The Headlines panel: cards that open in a new tab, the Updated time in California, shuffling, loading and
// failure states.
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Headlines } from '../src/headlines/Headlines';
import { formatPacificTime, type Headline, newestCreatedAt } from '../src/headlines/news';
import { squareRoutes, stubApi } from './support/api';
import { renderSquare } from './support/render';

const headlines: Headline[] = [
  {
    title: 'Budget talks resume at the Capitol',
    snippet: 'Negotiators return after the weekend.',
    url: 'https://news.example/budget',
    logo: '',
    publication: 'Capitol Weekly',
    createdAt: '2026-01-15T18:30:00Z',
  },
  {
    title: 'Water board sets new targets',
    snippet: 'The board voted 4-1.',
    url: 'https://news.example/water',
    logo: '',
    publication: 'CalMatters',
    createdAt: '2026-01-15T20:00:00Z',
  },
];

function answerNews(response: Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => response),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Headlines panel', () => {
  it('renders a card per headline with publication, title and snippet, opening in a new tab', async () => {
    answerNews(Promise.resolve(Response.json(headlines)));
    render(<Headlines />);
    const list = await screen.findByRole('list');
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    const water = screen.getByRole('link', { name: /Water board sets new targets/ });
    expect(water.getAttribute('href')).toBe('https://news.example/water');
    expect(water.textContent).toContain('CalMatters');
    expect(water.textContent).toContain('The board voted 4-1.');
    expect(screen.getByRole('heading', { name: 'Headlines' })).toBeTruthy();
  });

  it('shows the newest createdAt as the Updated time in Los Angeles', async () => {
    answerNews(Promise.resolve(Response.json(headlines)));
    render(<Headlines />);
    const updated = await screen.findByText(/^Updated/);
    expect(updated.textContent).toBe('Updated Jan 15, 2026, 12:00 PM PT');
  });

  it('shows a spinner while loading', () => {
    answerNews(new Promise(() => {}));
    render(<Headlines />);
    expect(screen.getByRole('status', { name: 'Loading headlines' })).toBeTruthy();
  });

  it('shows a calm message when the news call fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answerNews(Promise.resolve(new Response('unavailable', { status: 503 })));
    render(<Headlines />);
    expect(await screen.findByText(/Headlines are unavailable right now/)).toBeTruthy();
  });
});

describe('headline helpers', () => {
  it('formats in Pacific time across daylight saving', () => {
    expect(formatPacificTime(new Date('2026-01-15T20:00:00Z'))).toBe('Jan 15, 2026, 12:00 PM PT');
    expect(formatPacificTime(new Date('2026-07-15T20:00:00Z'))).toBe('Jul 15, 2026, 1:00 PM PT');
  });

  it('finds the newest createdAt and ignores unparsable dates', () => {
    expect(newestCreatedAt(headlines)?.toISOString()).toBe('2026-01-15T20:00:00.000Z');
    expect(newestCreatedAt([{ ...headlines[0], createdAt: 'not a date' } as Headline])).toBeNull();
  });
});

it('the public square has its heading beside the Headlines column', async () => {
  stubApi(squareRoutes([]));
  renderSquare();
  expect(screen.getByRole('heading', { level: 1, name: 'Public Square' })).toBeTruthy();
  expect(
    within(screen.getByRole('complementary', { name: 'News' })).getByRole('heading', { name: 'Headlines' }),
  ).toBeTruthy();
  expect(await screen.findByText('No headlines yet today.')).toBeTruthy();
});
