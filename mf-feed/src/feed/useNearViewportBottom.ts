// Calls back when an element comes within 1000 px of the bottom of the viewport (spec §4, §9): the feed asks
// for its next page when its last card gets that close. Answers a ref callback to put on the element; moving
// it to another element (a new last card) watches that one instead.
import { useCallback, useEffect, useRef } from 'react';

/** How close to the viewport's bottom the last card must come for the next page to load. */
export const LOAD_AHEAD_PX = 1000;

/** Whether this browser can tell; without it the feed offers a 'Show more posts' button instead. */
export const canObserveVisibility = (): boolean => typeof IntersectionObserver !== 'undefined';

export function useNearViewportBottom(onNear: () => void): (element: Element | null) => void {
  const callback = useRef(onNear);
  callback.current = onNear;
  const observer = useRef<IntersectionObserver | null>(null);

  useEffect(() => () => observer.current?.disconnect(), []);

  return useCallback((element: Element | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || !canObserveVisibility()) return;
    // The viewport grown by 1000 px at the bottom: 'intersecting' means within 1000 px of coming into view.
    observer.current = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: `0px 0px ${LOAD_AHEAD_PX}px 0px`, threshold: 0 },
    );
    observer.current.observe(element);
  }, []);
}
