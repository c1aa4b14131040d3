// One action at a time (useAction): what is missing is said instead of running it, a refusal shows the server's
// words, any other failure a calm line (and a log entry), and a second press while it runs does nothing.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, refusalOr, useAction } from '../src/index';

const lineFor = refusalOr({ logged: 'The thing could not be saved', shown: 'Please try again in a moment.' });

function SaveButton({ action, missing = null }: { action: () => Promise<unknown>; missing?: string | null }) {
  const { busy, error, run } = useAction();
  return (
    <>
      <button type="button" onClick={() => run(action, lineFor, missing)}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      {error && <p role="alert">{error}</p>}
    </>
  );
}

const press = async (name: string) => {
  await act(async () => fireEvent.click(screen.getByRole('button', { name })));
};

afterEach(() => vi.restoreAllMocks());

describe('useAction', () => {
  it('says what is missing instead of running the action', async () => {
    const action = vi.fn(async () => {});
    render(<SaveButton action={action} missing="Please provide entries for: Bio" />);
    await press('Save');
    expect(action).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Please provide entries for: Bio');
  });

  it("shows a refusal in the server's words, without logging it", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<SaveButton action={() => Promise.reject(new ApiError('POST', '/x', 409, 'Already there'))} />);
    await press('Save');
    expect(screen.getByRole('alert').textContent).toBe('Already there');
    expect(log).not.toHaveBeenCalled();
  });

  it('shows the calm line for any other failure and logs it; the button is usable again', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new ApiError('POST', '/x', 503, 'Down');
    render(<SaveButton action={() => Promise.reject(failure)} />);
    await press('Save');
    expect(screen.getByRole('alert').textContent).toBe('Please try again in a moment.');
    expect(log).toHaveBeenCalledWith('The thing could not be saved', failure);
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('runs the action once while it is busy, then offers Save again', async () => {
    let finish = () => {};
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<SaveButton action={action} missing={null} />);
    await press('Save');
    await press('Saving…');
    expect(action).toHaveBeenCalledOnce();
    await act(async () => finish());
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
