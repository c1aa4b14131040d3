// The take-over of a first screen the gateway drew (ADR 0053): the drawn markup stays in sight, the app renders
// beside it out of sight and out of reach, and the swap happens when the remote says it has drawn, or at the latest
// after the time allowed.
import { FIRST_SCREEN_ATTRIBUTE } from '@rotunda/rules';
import { act, render } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { FirstScreenDrawn } from '../src/index';
import { takeOverContainer } from '../src/mount';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

function page(drawn: boolean): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = drawn
    ? `<div ${FIRST_SCREEN_ATTRIBUTE}><h1>Public Square</h1><a href="/public-square/post/7">Keep Reading</a><a href="/accessibility">Accessibility statement</a></div>`
    : '';
  document.body.append(root);
  return root;
}

const drawnLink = (root: HTMLElement, name: string) =>
  Array.from(root.querySelectorAll('a')).find((link) => link.textContent === name) as HTMLAnchorElement;

it('renders into #root itself when nothing was drawn', () => {
  const root = page(false);
  expect(takeOverContainer(root)).toBe(root);
});

it('keeps the drawn screen until the remote has drawn, then shows the app in its place', () => {
  const root = page(true);
  const app = takeOverContainer(root);
  expect(app.parentElement).toBe(root);
  expect(app.inert).toBe(true);
  expect(app.style.visibility).toBe('hidden');
  expect(root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)).not.toBeNull();

  render(
    <dialog open>
      <button type="button" data-autofocus>
        Close
      </button>
    </dialog>,
    { container: app },
  );
  expect(root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)).not.toBeNull();

  render(<FirstScreenDrawn />, { container: app.appendChild(document.createElement('div')) });
  expect(root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)).toBeNull();
  expect(app.inert).toBe(false);
  expect(app.getAttribute('style')).toBeNull();
  // The dialog opened while out of reach gets the focus it could not take then.
  expect(document.activeElement?.textContent).toBe('Close');
});

it('shows the app anyway when the remote never says it has drawn', () => {
  vi.useFakeTimers();
  const root = page(true);
  const app = takeOverContainer(root, 10_000);
  act(() => vi.advanceTimersByTime(9_999));
  expect(root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)).not.toBeNull();
  act(() => vi.advanceTimersByTime(1));
  expect(root.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`)).toBeNull();
  expect(app.inert).toBe(false);
});

it('keeps a keyboard user in place: the app’s same link takes the focus, else its main landmark', () => {
  const root = page(true);
  const app = takeOverContainer(root);
  render(
    <main tabIndex={-1}>
      <a href="/public-square/post/8">Keep Reading</a>
      <a href="/public-square/post/7">Keep Reading</a>
    </main>,
    { container: app },
  );
  drawnLink(root, 'Keep Reading').focus();
  render(<FirstScreenDrawn />, { container: app.appendChild(document.createElement('div')) });
  expect(document.activeElement?.getAttribute('href')).toBe('/public-square/post/7');
  expect(app.contains(document.activeElement)).toBe(true);

  document.body.innerHTML = '';
  const again = page(true);
  const appAgain = takeOverContainer(again);
  render(<main tabIndex={-1}>The app has no such link</main>, { container: appAgain });
  drawnLink(again, 'Accessibility statement').focus();
  render(<FirstScreenDrawn />, { container: appAgain.appendChild(document.createElement('div')) });
  expect(document.activeElement?.localName).toBe('main');
});
