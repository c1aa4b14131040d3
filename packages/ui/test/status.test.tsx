// The error line (with and without 'Try again') and the hook that calls back when a list's last card is seen:
// wholly visible by default, or within a distance of the viewport's bottom.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorLine, useWhenVisible } from '../src/index';
import { FakeIntersectionObserver } from './support';

describe('ErrorLine', () => {
  it('is an alert with its text, and Try again only when it can retry', () => {
    const onRetry = vi.fn();
    const { container, rerender } = render(
      <ErrorLine onRetry={onRetry}>The feed could not be loaded.</ErrorLine>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.className).toBe('error-line');
    expect(container.querySelector('.error-line__text')?.textContent).toBe('The feed could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    rerender(<ErrorLine>Bad filters.</ErrorLine>);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

function Card({
  onVisible,
  loadAheadPx,
  again,
}: {
  onVisible: () => void;
  loadAheadPx?: number;
  again?: string;
}) {
  const ref = useWhenVisible(onVisible, loadAheadPx, again);
  return <div ref={ref}>Last card</div>;
}

describe('useWhenVisible', () => {
  beforeAll(() => FakeIntersectionObserver.install());
  afterEach(() => FakeIntersectionObserver.reset());

  it('by default calls back once the element is wholly visible, not before', () => {
    const onVisible = vi.fn();
    render(<Card onVisible={onVisible} />);
    const card = screen.getByText('Last card');
    expect(FakeIntersectionObserver.thresholdsFor(card)).toEqual([[1]]);
    act(() => FakeIntersectionObserver.intersect(card, 0.5));
    expect(onVisible).not.toHaveBeenCalled();
    act(() => FakeIntersectionObserver.intersect(card, 0.995));
    expect(onVisible).toHaveBeenCalledOnce();
  });

  it('with a distance calls back once the element comes that close to the viewport’s bottom', () => {
    const onVisible = vi.fn();
    render(<Card onVisible={onVisible} loadAheadPx={1000} />);
    const card = screen.getByText('Last card');
    expect(FakeIntersectionObserver.marginsFor(card)).toEqual(['0px 0px 1000px 0px']);
    act(() => FakeIntersectionObserver.intersect(card, 0));
    expect(onVisible).not.toHaveBeenCalled();
    act(() => FakeIntersectionObserver.intersect(card, 0.01));
    expect(onVisible).toHaveBeenCalledOnce();
  });

  it('calls back again when `again` changes while the element stays in view, and not once it has left', () => {
    const onVisible = vi.fn();
    const { rerender } = render(<Card onVisible={onVisible} loadAheadPx={1000} again="loading" />);
    const card = screen.getByText('Last card');
    act(() => FakeIntersectionObserver.intersect(card, 0.5));
    expect(onVisible).toHaveBeenCalledTimes(1);
    rerender(<Card onVisible={onVisible} loadAheadPx={1000} again="ready" />);
    expect(onVisible).toHaveBeenCalledTimes(2);
    act(() => FakeIntersectionObserver.intersect(card, 0));
    rerender(<Card onVisible={onVisible} loadAheadPx={1000} again="loading" />);
    expect(onVisible).toHaveBeenCalledTimes(2);
  });

  it('stops watching when the element goes', () => {
    const { unmount } = render(<Card onVisible={() => {}} />);
    const card = screen.getByText('Last card');
    unmount();
    expect(FakeIntersectionObserver.thresholdsFor(card)).toEqual([]);
  });
});
