// A stand-in IntersectionObserver the tests drive (jsdom has none): `intersect(element, ratio)` tells every
// observer watching that element it is now that much in view (for an observer with a root margin: within that
// margin of the viewport), as the browser would while the member scrolls.
export class FakeIntersectionObserver {
  static instances = new Set<FakeIntersectionObserver>();
  readonly rootMargin: string;
  readonly thresholds: number[];
  private readonly watched = new Set<Element>();
  private readonly callback: IntersectionObserverCallback;

  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    this.rootMargin = options.rootMargin ?? '0px';
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

  private static watching(element: Element): FakeIntersectionObserver[] {
    return [...FakeIntersectionObserver.instances].filter((observer) => observer.watched.has(element));
  }

  /** The thresholds of the observers watching `element` (none: nobody watches it). */
  static thresholdsFor(element: Element): number[][] {
    return FakeIntersectionObserver.watching(element).map((observer) => observer.thresholds);
  }

  /** The root margins of the observers watching `element`. */
  static marginsFor(element: Element): string[] {
    return FakeIntersectionObserver.watching(element).map((observer) => observer.rootMargin);
  }

  /** Reports `element` as `ratio` in view (0: out of view) to every observer watching it. */
  static intersect(element: Element, ratio = 1): void {
    for (const observer of FakeIntersectionObserver.watching(element)) {
      const entry = { target: element, isIntersecting: ratio > 0, intersectionRatio: ratio };
      observer.callback([entry as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
    }
  }

  /** Puts the stand-in in the place of the browser's IntersectionObserver. */
  static install(): void {
    globalThis.IntersectionObserver = FakeIntersectionObserver as unknown as typeof IntersectionObserver;
  }
}
