// Types for the little of jsdom the body sanitizer uses: jsdom ships none and @types/jsdom is not installed.
declare module 'jsdom' {
  /** A parsed node, as far as the sanitizer reads it. */
  export interface DomNode {
    readonly nodeType: number;
    readonly nodeName: string;
    readonly nodeValue: string | null;
    readonly childNodes: ArrayLike<DomNode>;
  }

  export interface DomTemplate extends DomNode {
    innerHTML: string;
    readonly content: DomNode;
  }

  export interface DomWindow {
    readonly document: { createElement(tagName: 'template'): DomTemplate };
    close(): void;
  }

  export class JSDOM {
    constructor(html?: string);
    readonly window: DomWindow;
  }
}
