// Whether an element is narrower than a width, kept up to date as it resizes: answers a ref callback to put on
// the element, and the answer. Measured as the element is attached too, so the first paint already fits.
// Where the browser cannot tell (no ResizeObserver), it answers false.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useNarrowerThan(width: number): [(element: Element | null) => void, boolean] {
  const [narrow, setNarrow] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);

  useEffect(() => () => observer.current?.disconnect(), []);

  const ref = useCallback(
    (element: Element | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || typeof ResizeObserver === 'undefined') return;
      setNarrow(element.getBoundingClientRect().width < width);
      observer.current = new ResizeObserver((entries) => {
        const entry = entries.at(-1);
        if (entry) setNarrow(entry.contentRect.width < width);
      });
      observer.current.observe(element);
    },
    [width],
  );

  return [ref, narrow];
}
