// A stand-in IntersectionObserver the tests drive: `intersect(element)` tells every observer watching that
// element it now intersects its root (for the feed: it is within 1000 px of the viewport's bottom), as the
// browser would while the member scrolls.
export class FakeIntersectionObserver {
  static instances = new Set<FakeIntersectionObserver>();
  readonly rootMargin: string;
  private readonly watched = new Set<Element>();
  private readonly callback: IntersectionObserverCallback;

  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    this.rootMargin = options.rootMargin ?? '0px';
    FakeIntersectionObserver.instances.add(this);
  }

  observe(element: Element): void {
    this.watched.add(element);
  }

  unobserve(element: Element): void {
    this.watched.delete(element);
  }

  disconnect(): void {
    this.watched.clear();
    FakeIntersectionObserver.instances.delete(this);
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  static reset(): void {
    FakeIntersectionObserver.instances.clear();
  }

  /** The root margins of the observers watching `element`. */
  static marginsFor(element: Element): string[] {
    return [...FakeIntersectionObserver.instances]
      .filter((observer) => observer.watched.has(element))
      .map((observer) => observer.rootMargin);
  }

  static intersect(element: Element, isIntersecting = true): void {
    for (const observer of [...FakeIntersectionObserver.instances]) {
      if (!observer.watched.has(element)) continue;
      const entry = { target: element, isIntersecting, intersectionRatio: isIntersecting ? 0.1 : 0 };
      observer.callback([entry as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
    }
  }
}
