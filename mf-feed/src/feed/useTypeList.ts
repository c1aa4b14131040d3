// A list of types the server keeps (post types for the filter and the create form, event types for events),
// fetched once when first needed. A failure leaves the list empty and is only logged
// (docs/product.md#8-error-catalogue).
import { useEffect, useState } from 'react';

export function useTypeList<T>(load: (signal: AbortSignal) => Promise<T[]>, enabled = true): T[] {
  const [items, setItems] = useState<T[]>([]);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (!enabled || loaded) return;
    const controller = new AbortController();
    load(controller.signal).then(
      (list) => {
        setItems(list);
        setLoaded(true);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('A list of types could not be loaded', error);
      },
    );
    return () => controller.abort();
  }, [load, enabled, loaded]);

  return items;
}
