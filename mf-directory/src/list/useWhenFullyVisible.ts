// Calls back when an element becomes fully visible (IntersectionObserver, threshold 1): the directory asks
// for the next 30 people when its last card is wholly on screen (spec §4). Answers a ref callback to put on
// the element; moving it to another element (a new last card) observes that one instead.
import { useCallback, useEffect, useRef } from 'react';

/** Whether this browser can tell; without it the list offers a 'Show more' button instead. */
export const canObserveVisibility = (): boolean => typeof IntersectionObserver !== 'undefined';

export function useWhenFullyVisible(onVisible: () => void): (element: Element | null) => void {
  const callback = useRef(onVisible);
  callback.current = onVisible;
  const observer = useRef<IntersectionObserver | null>(null);

  useEffect(() => () => observer.current?.disconnect(), []);

  return useCallback((element: Element | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || !canObserveVisibility()) return;
    observer.current = new IntersectionObserver(
      (entries) => {
        // Some engines report 0.99… for a fully visible element with fractional pixel bounds.
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= 0.99))
          callback.current();
      },
      { threshold: 1 },
    );
    observer.current.observe(element);
  }, []);
}
