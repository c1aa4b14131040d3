// Calls back when an element comes into view (IntersectionObserver), for lists that load their next page when
// their last card is seen (docs/product.md#4-states-and-transitions, #9-business-constants-and-limits): by
// default once the element is wholly visible (the directory and the organization list), or with `loadAheadPx`
// once it comes within that many pixels of the viewport's bottom (the feed). Answers a ref callback to put on
// the element; moving it to another element (a new last card) observes that one instead. An observer speaks
// only when the element enters or leaves view, so a call the list refused (its new query was still loading)
// would never come again while the card stays in view: a change of `again` calls back once more if the
// element is in view then.
import { useCallback, useEffect, useRef } from 'react';

/** Whether this browser can tell; without it a list offers a 'Show more' button instead. */
export const canObserveVisibility = (): boolean => typeof IntersectionObserver !== 'undefined';

export function useWhenVisible(
  onVisible: () => void,
  loadAheadPx?: number,
  again?: unknown,
): (element: Element | null) => void {
  const callback = useRef(onVisible);
  callback.current = onVisible;
  const observer = useRef<IntersectionObserver | null>(null);
  const inView = useRef(false);

  useEffect(() => () => observer.current?.disconnect(), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` is the trigger on purpose
  useEffect(() => {
    if (inView.current) callback.current();
  }, [again]);

  return useCallback(
    (element: Element | null) => {
      observer.current?.disconnect();
      observer.current = null;
      inView.current = false;
      if (!element || !canObserveVisibility()) return;
      const wholly = loadAheadPx === undefined;
      // Without a distance: some engines report 0.99… for a fully visible element with fractional pixel bounds.
      // With one, the viewport is grown at the bottom: 'intersecting' means within that distance of coming into view.
      observer.current = new IntersectionObserver(
        (entries) => {
          const latest = entries[entries.length - 1];
          inView.current = latest?.isIntersecting === true && (!wholly || latest.intersectionRatio >= 0.99);
          if (inView.current) callback.current();
        },
        wholly ? { threshold: 1 } : { rootMargin: `0px 0px ${loadAheadPx}px 0px`, threshold: 0 },
      );
      observer.current.observe(element);
    },
    [loadAheadPx],
  );
}
