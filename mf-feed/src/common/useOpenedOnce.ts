// Whether something has been open at least once: a dialog loaded on demand is mounted from its first
// opening on and stays mounted, so it keeps its state and opens at once the next time.
import { useState } from 'react';

export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Adjusting state while rendering (not in an effect): the dialog starts loading in this same render.
  if (open && !opened) setOpened(true);
  return opened || open;
}
