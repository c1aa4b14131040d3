// The browser tab's title names the screen shown (WCAG 2.4.2): its h1, then 'Rotunda'. The h1 is read from the
// main landmark whenever what it holds changes, so a micro-frontend's screen, which draws its heading once its
// code and data arrive, is titled as well as the shell's own pages, without each screen setting it.
import { type RefObject, useEffect } from 'react';

export const PRODUCT_NAME = 'Rotunda';

/** 'Directory – Rotunda'; the product's name alone while the screen has no heading yet. */
export function screenTitle(heading: string | null | undefined): string {
  const text = heading?.replace(/\s+/g, ' ').trim();
  return text ? `${text} – ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function useScreenTitle(main: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = main.current;
    if (!element) return;
    const update = () => {
      const title = screenTitle(element.querySelector('h1')?.textContent);
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(element, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [main]);
}
