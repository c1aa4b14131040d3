// A micro-frontend that fails to load shows an error panel with 'Try again'; retrying loads it. One released
// for a newer page (the federation runtime refuses its singleton requirement) asks for a reload instead. A first
// screen the gateway drew gives way to the error panel (it would otherwise stay in sight until the time runs out).
import { FIRST_SCREEN_DRAWN_EVENT } from '@rotunda/rules';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import { RemoteView } from '../src/remotes/RemoteView';

function Directory() {
  return <h1>Directory</h1>;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

it('shows a spinner, then the remote', async () => {
  const load = vi.fn(async (): Promise<ComponentType> => Directory);
  render(<RemoteView module="mf_directory/Directory" label="Directory" load={load} />);
  expect(screen.getByRole('status', { name: 'Loading Directory' })).toBeTruthy();
  expect(await screen.findByRole('heading', { name: 'Directory' })).toBeTruthy();
});

it('shows the retry panel when loading fails and recovers on Try again', async () => {
  const load = vi
    .fn<() => Promise<ComponentType>>()
    .mockRejectedValueOnce(new Error('Failed to fetch mf-manifest.json'))
    .mockResolvedValue(Directory);
  const drawn = vi.fn();
  window.addEventListener(FIRST_SCREEN_DRAWN_EVENT, drawn);
  render(<RemoteView module="mf_directory/Directory" label="Directory" load={load} />);
  expect(await screen.findByRole('heading', { name: 'Directory could not be loaded' })).toBeTruthy();
  // The error is what the page shows now, not a drawn first screen.
  expect(drawn).toHaveBeenCalled();
  window.removeEventListener(FIRST_SCREEN_DRAWN_EVENT, drawn);
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Directory' })).toBeTruthy();
  expect(load).toHaveBeenCalledTimes(2);
});

let broken = true;

function Flaky() {
  if (broken) throw new Error('render failure');
  return <h1>Directory</h1>;
}

it('shows the retry panel when the loaded remote throws while rendering', async () => {
  const load = vi.fn(async (): Promise<ComponentType> => Flaky);
  render(<RemoteView module="mf_directory/Directory" label="Directory" load={load} />);
  expect(await screen.findByRole('heading', { name: 'Directory could not be loaded' })).toBeTruthy();
  broken = false;
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Directory' })).toBeTruthy();
});

it('asks for a reload when the remote needs a singleton version this page lacks', async () => {
  const load = vi.fn(async (): Promise<ComponentType> => {
    throw new Error(
      '[ Federation Runtime ]: Version 19.3.1 from shell of shared singleton module react does not satisfy the requirement of mf_directory which needs ^20.0.0)',
    );
  });
  const reload = vi.fn();
  render(<RemoteView module="mf_directory/Directory" label="Directory" load={load} reload={reload} />);
  expect(await screen.findByRole('heading', { name: 'Directory was updated' })).toBeTruthy();
  expect(
    screen.getByText(/This part of Rotunda was updated and needs a newer page\. Reload to continue/),
  ).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
  expect(reload).toHaveBeenCalledTimes(1);
  expect(load).toHaveBeenCalledTimes(1);
});
