// The directory's person cards: picture or a placeholder (the same one for a person on every render, drawn
// locally), name, title, organization with division, city and state; each card a link to /profile/<id>.
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PersonCard } from '../src/list/PersonCard';
import { PlaceholderPicture, placeholderFor } from '../src/list/PersonPicture';
import { person, searchOf, stubDirectory } from './support/api';
import { location, renderAt, signIn } from './support/render';

describe('a card', () => {
  it('shows the picture, name, title, organization and division, city and state', async () => {
    signIn();
    stubDirectory(
      searchOf([
        person({
          profile_id: 41,
          first_name: 'Marisol',
          last_name: 'Ortega',
          title: 'Chief of Staff',
          organization_name: 'California State Senate',
          division_name: 'Office of Senator Reyes',
          city: 'Sacramento',
          state: 'CA',
          profile_picture: '/media/pictures/2026/41.jpg',
        }),
      ]),
    );
    renderAt('/directory');
    const card = await screen.findByRole('link', { name: /Marisol Ortega/ });
    expect(card.getAttribute('href')).toBe('/profile/41');
    for (const text of [
      'Chief of Staff',
      'California State Senate',
      'Office of Senator Reyes',
      'Sacramento, CA',
    ]) {
      expect(card.textContent).toContain(text);
    }
    const picture = card.querySelector('img');
    expect(picture?.getAttribute('src')).toBe('/media/pictures/2026/41.jpg');
    expect(picture?.getAttribute('alt')).toBe('');
  });

  it('leaves out what a person does not have', () => {
    render(
      <MemoryRouter>
        <PersonCard
          person={person({
            profile_id: 5,
            title: null,
            organization_name: null,
            division_name: null,
            city: null,
            state: 'CA',
          })}
        />
      </MemoryRouter>,
    );
    const card = screen.getByRole('link');
    expect(card.textContent).toBe('Person 5CA');
  });

  it('shows the preferred name in place of the first name', () => {
    render(
      <MemoryRouter>
        <PersonCard person={person({ profile_id: 6, first_name: 'Elizabeth', preferred_name: 'Liz' })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: /^Liz 6/ })).toBeTruthy();
    expect(screen.getByRole('link').textContent).not.toContain('Elizabeth');
  });

  it('opens the profile on a click', async () => {
    signIn();
    stubDirectory(searchOf([person({ profile_id: 12 })]));
    renderAt('/directory');
    fireEvent.click(await screen.findByRole('link', { name: /Person 12/ }));
    expect(location()).toBe('/profile/12');
    expect(screen.getByText('Profile 12')).toBeTruthy();
  });
});

describe('placeholder pictures', () => {
  it('draws a placeholder, not an image from elsewhere, when a person has no picture', async () => {
    signIn();
    stubDirectory(searchOf([person({ profile_id: 7, profile_picture: null })]));
    renderAt('/directory');
    const card = await screen.findByRole('link', { name: /Person 7/ });
    expect(card.querySelector('img')).toBeNull();
    const placeholder = card.querySelector('svg.dir-picture--placeholder');
    expect(placeholder?.getAttribute('aria-hidden')).toBe('true');
    expect(placeholder?.getAttribute('data-placeholder')).toBe(
      `${placeholderFor(7).colour}-${placeholderFor(7).figure}`,
    );
  });

  it('falls back to the placeholder when the picture cannot be loaded', async () => {
    signIn();
    stubDirectory(searchOf([person({ profile_id: 8, profile_picture: '/media/pictures/gone.jpg' })]));
    renderAt('/directory');
    const card = await screen.findByRole('link', { name: /Person 8/ });
    const picture = card.querySelector('img');
    if (!picture) throw new Error('no picture');
    fireEvent.error(picture);
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('svg.dir-picture--placeholder')).not.toBeNull();
  });

  it('gives a person the same placeholder every time, and varies it between people', () => {
    const drawn = (id: number) => {
      const { container, unmount } = render(<PlaceholderPicture profileId={id} />);
      const markup = container.innerHTML;
      unmount();
      return markup;
    };
    expect(drawn(1234)).toBe(drawn(1234));
    const looks = new Set(Array.from({ length: 40 }, (_, i) => drawn(i + 1)));
    expect(looks.size).toBeGreaterThanOrEqual(8);
    const colours = new Set(Array.from({ length: 40 }, (_, i) => placeholderFor(i + 1).colour));
    expect(colours.size).toBeGreaterThanOrEqual(5);
  });
});
