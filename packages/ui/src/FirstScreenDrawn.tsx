// Rendered by a screen once what it first shows is on the page (its data, its error, its not-found): tells the
// shell's mount (mount.tsx) that the first screen the gateway drew may give way to it (ADR 0053).
import { FIRST_SCREEN_DRAWN_EVENT } from '@rotunda/rules';
import { useEffect } from 'react';

export function FirstScreenDrawn() {
  useEffect(() => {
    window.dispatchEvent(new Event(FIRST_SCREEN_DRAWN_EVENT));
  }, []);
  return null;
}
