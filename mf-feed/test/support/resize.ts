// A stand-in ResizeObserver the tests drive: `resize(element, width)` tells every observer watching that
// element its content box is now `width` px wide, as the browser would when the window or the sidebar changes.
export class FakeResizeObserver {
  static instances = new Set<FakeResizeObserver>();
  private readonly watched = new Set<Element>();
  private readonly callback: ResizeObserverCallback;

  constructor(callback: ResizeObserverCallback) {
    this.callback = callback;
    FakeResizeObserver.instances.add(this);
  }

  observe(element: Element): void {
    this.watched.add(element);
  }

  unobserve(element: Element): void {
    this.watched.delete(element);
  }

  disconnect(): void {
    this.watched.clear();
    FakeResizeObserver.instances.delete(this);
  }

  static reset(): void {
    FakeResizeObserver.instances.clear();
  }

  static resize(element: Element, width: number): void {
    for (const observer of [...FakeResizeObserver.instances]) {
      if (!observer.watched.has(element)) continue;
      const entry = { target: element, contentRect: { width } };
      observer.callback([entry as ResizeObserverEntry], observer as unknown as ResizeObserver);
    }
  }
}
