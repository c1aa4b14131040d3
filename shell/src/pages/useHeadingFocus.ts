// Moves focus to a page's heading when it opens, so screen readers start at the new page, and again whenever
// `change` changes (a page whose heading then says something new, such as an outcome).
import { type RefObject, useEffect } from 'react';

export function useHeadingFocus(ref: RefObject<HTMLElement | null>, change?: unknown): void {
  // `change` is a dependency on purpose: a new value focuses the heading again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: change re-triggers the focus
  useEffect(() => {
    const heading = ref.current?.querySelector('h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [ref, change]);
}
