// A stand-in IntersectionObserver the tests drive: `intersect(element, ratio)` tells every observer watching
// that element it is now that much in view, as the browser would while the member scrolls.
export class FakeIntersectionObserver {
  static instances = new Set<FakeIntersectionObserver>();
  readonly thresholds: number[];
  private readonly watched = new Set<Element>();
  private readonly callback: IntersectionObserverCallback;

  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    const threshold = options.threshold ?? 0;
    this.thresholds = Array.isArray(threshold) ? threshold : [threshold];
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

  /** Whether any observer watches `element`, and with which thresholds. */
  static thresholdsFor(element: Element): number[][] {
    return [...FakeIntersectionObserver.instances]
      .filter((observer) => observer.watched.has(element))
      .map((observer) => observer.thresholds);
  }

  static intersect(element: Element, ratio: number): void {
    for (const observer of [...FakeIntersectionObserver.instances]) {
      if (!observer.watched.has(element)) continue;
      const entry = {
        target: element,
        isIntersecting: ratio > 0,
        intersectionRatio: ratio,
      } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}
