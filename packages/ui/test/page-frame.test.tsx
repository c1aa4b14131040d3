// The shared page frame renders the heading block (decorative icon, h1, description) above the screen's
// content, and the mount helper renders one screen or a route table into #root.
import { act, render, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { IconBadge, Page } from '../src/index';
import { mountApp } from '../src/mount';

function Star({ size }: { size?: number }) {
  return <svg data-testid="star" width={size} height={size} />;
}

let mounted: Root | null = null;

afterEach(() => {
  act(() => mounted?.unmount());
  mounted = null;
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

it('renders the header with a decorative icon, the h1 and the lede, then the content', () => {
  render(
    <Page icon={Star} title="Organizations" lede="Agencies and associations.">
      <p>Below the header</p>
    </Page>,
  );
  const heading = screen.getByRole('heading', { level: 1, name: 'Organizations' });
  expect(heading.closest('header')?.textContent).toContain('Agencies and associations.');
  expect(screen.getByTestId('star').closest('[aria-hidden="true"]')).toBeTruthy();
  expect(screen.getByTestId('star').getAttribute('width')).toBe('22');
  expect(screen.getByText('Below the header').previousElementSibling?.tagName).toBe('HEADER');
});

it('draws an icon badge on its own, hidden from screen readers', () => {
  const { container } = render(<IconBadge icon={Star} />);
  expect(container.querySelector('.icon-badge')?.getAttribute('aria-hidden')).toBe('true');
});

it('mounts a route table into #root, choosing the screen by path', () => {
  document.body.innerHTML = '<div id="root"></div>';
  window.history.replaceState(null, '', '/profile/7');
  act(() => {
    mounted = mountApp({
      '/profile/:id': () => <h1>Profile page</h1>,
      '*': () => <h1>Create your profile</h1>,
    });
  });
  expect(screen.getByRole('heading', { name: 'Profile page' })).toBeTruthy();
});

it('mounts a single screen into #root', () => {
  document.body.innerHTML = '<div id="root"></div>';
  act(() => {
    mounted = mountApp(() => <h1>Directory</h1>);
  });
  expect(screen.getByRole('heading', { name: 'Directory' })).toBeTruthy();
});

it('mounts nothing when the page has no #root', () => {
  expect(mountApp(() => <h1>Directory</h1>)).toBeNull();
});
