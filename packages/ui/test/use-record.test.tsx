// useRecord, the record a page shows by the id in its address: an id that is not a number or that the server
// does not know is not found (the first never asked for), another failure is an error a retry recovers from, a
// failed reload keeps what is shown, and another id starts over (the page told, so it can close its dialogs).
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, useRecord } from '../src/index';

interface Shown {
  name: string;
}

let page: ReturnType<typeof useRecord<Shown>>;

function RecordPage({
  id,
  load,
  onNewId,
}: {
  id: string;
  load: (id: string) => Promise<Shown>;
  onNewId?: () => void;
}) {
  page = useRecord(id, load, 'The record could not be loaded', onNewId);
  const { state } = page;
  return <p>{state.status === 'ready' ? `ready: ${state.record.name}` : state.status}</p>;
}

const settle = () => act(async () => {});
const shown = () => screen.getByRole('paragraph').textContent;

afterEach(() => vi.restoreAllMocks());

describe('useRecord', () => {
  it('is not found, without asking, for an id that is not a number', async () => {
    const load = vi.fn(async () => ({ name: 'Ada' }));
    render(<RecordPage id="abc" load={load} />);
    await settle();
    expect(shown()).toBe('not-found');
    expect(load).not.toHaveBeenCalled();
  });

  it('is not found when the server answers 404, and an error (logged) for anything else, which a retry recovers from', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <RecordPage id="4" load={() => Promise.reject(new ApiError('GET', '/x/4', 404, 'No such record'))} />,
    );
    await settle();
    expect(shown()).toBe('not-found');
    expect(log).not.toHaveBeenCalled();

    const failing = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ name: 'Ada' });
    rerender(<RecordPage id="5" load={failing} />);
    await settle();
    expect(shown()).toBe('error');
    expect(log).toHaveBeenCalledWith('The record could not be loaded', expect.any(Error));
    await act(async () => page.reload());
    expect(shown()).toBe('ready: Ada');
  });

  it('keeps the record on screen when a reload fails, and shows and updates it in place', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn().mockResolvedValueOnce({ name: 'Ada' }).mockRejectedValue(new Error('offline'));
    render(<RecordPage id="7" load={load} />);
    await settle();
    await act(async () => page.reload());
    expect(load).toHaveBeenCalledTimes(2);
    expect(shown()).toBe('ready: Ada');
    act(() => page.show({ name: 'Grace' }));
    expect(shown()).toBe('ready: Grace');
    act(() => page.update((record) => ({ name: `${record.name} Hopper` })));
    expect(shown()).toBe('ready: Grace Hopper');
  });

  it('starts over for another id, telling the page, but not for a reload of the same one', async () => {
    const onNewId = vi.fn();
    const load = vi.fn(async (id: string) => ({ name: `record ${id}` }));
    const { rerender } = render(<RecordPage id="1" load={load} onNewId={onNewId} />);
    await settle();
    expect(onNewId).toHaveBeenCalledTimes(1);
    await act(async () => page.reload());
    expect(onNewId).toHaveBeenCalledTimes(1);
    rerender(<RecordPage id="2" load={load} onNewId={onNewId} />);
    expect(shown()).toBe('loading');
    await settle();
    expect(onNewId).toHaveBeenCalledTimes(2);
    expect(shown()).toBe('ready: record 2');
  });
});
