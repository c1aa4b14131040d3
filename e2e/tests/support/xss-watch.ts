// Test helper: watches a page for injected script running and for injected markup that got through. Before any
// of the app's scripts, alert/confirm/prompt/print and a window.__xss setter are replaced by recorders, and
// every Content-Security-Policy violation is recorded (a blocked inline script means markup got into the page
// and only the policy stopped it). `domProblems` then lists what a sanitizer or React should never let into
// the page: event-handler attributes, script-bearing URLs, scripts the app did not ship, frames and objects,
// clobbered globals, and in post bodies any element, class or style outside Quill's own.
import type { Page } from '@playwright/test';

/** Elements and attributes a post body may hold (@rotunda/rules RICH_TEXT_TAGS), and Quill's classes. */
const POST_BODY_TAGS = ['P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'OL', 'UL', 'LI', 'A', 'SPAN'];

export async function watchForXss(page: Page): Promise<void> {
  const hits: string[] = [];
  page.on('dialog', async (dialog) => {
    hits.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  await page.exposeFunction('__xssHit', (what: string) => {
    hits.push(what);
  });
  (page as Page & { xssHits?: string[] }).xssHits = hits;
  await page.addInitScript(() => {
    const report = (what: string) => (window as unknown as { __xssHit: (w: string) => void }).__xssHit(what);
    for (const name of ['alert', 'confirm', 'prompt', 'print'] as const)
      Object.defineProperty(window, name, {
        value: (...args: unknown[]) => report(`${name}(${args.join(',')})`),
      });
    Object.defineProperty(window, '__xss', {
      configurable: false,
      set: (value: unknown) => report(`window.__xss = ${String(value)}`),
      get: () => undefined,
    });
    document.addEventListener('securitypolicyviolation', (event) =>
      report(`CSP ${event.effectiveDirective} blocked ${event.blockedURI} ${event.sample}`),
    );
  });
}

/** What ran so far on this page: calls of the recorders, dialogs and CSP violations. */
export function xssHits(page: Page): string[] {
  return [...((page as Page & { xssHits?: string[] }).xssHits ?? [])];
}

/** Injected markup found in the page as it stands now, or within the element `root` selects. */
export async function domProblems(page: Page, root = 'html'): Promise<string[]> {
  return page.evaluate(
    ([postBodyTags, rootSelector]) => {
      const top = document.querySelector(rootSelector) ?? document.documentElement;
      const problems: string[] = [];
      const shown = (element: Element) =>
        `<${element.tagName.toLowerCase()}${Array.from(element.attributes)
          .map((a) => ` ${a.name}="${a.value.slice(0, 60)}"`)
          .join('')}>`;
      // Browsers skip control characters and spaces inside a scheme ('java\tscript:'), so they are dropped first.
      const scriptUrl = (value: string) =>
        /^(javascript|vbscript|data):/i.test(
          Array.from(value)
            .filter((c) => c.charCodeAt(0) > 0x20 && (c.charCodeAt(0) < 0x7f || c.charCodeAt(0) > 0x9f))
            .join(''),
        );
      for (const element of [top, ...Array.from(top.querySelectorAll('*'))]) {
        for (const attribute of Array.from(element.attributes)) {
          if (/^on/i.test(attribute.name))
            problems.push(`event handler ${attribute.name} on ${shown(element)}`);
          if (
            /^(href|src|action|formaction|data|background|xlink:href|poster|srcdoc)$/i.test(attribute.name)
          ) {
            if (attribute.name.toLowerCase() === 'srcdoc' || scriptUrl(attribute.value))
              problems.push(`script URL in ${attribute.name} of ${shown(element)}`);
          }
        }
        const tag = element.tagName.toUpperCase();
        if (['IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'BASE'].includes(tag))
          problems.push(`injected ${shown(element)}`);
        if (tag === 'META' && element.getAttribute('http-equiv')) problems.push(`injected ${shown(element)}`);
        // The data the gateway's page carries for the app (ADR 0053; @rotunda/rules first-screen.ts): inert JSON
        // the product wrote itself, under its own ids.
        const productData =
          tag === 'SCRIPT' &&
          element.getAttribute('type') === 'application/json' &&
          ['rotunda-first-feed', 'rotunda-first-post'].includes(element.id);
        if (tag === 'SCRIPT' && !productData) {
          const src = element.getAttribute('src');
          if (!src || new URL(src, location.href).origin !== location.origin)
            problems.push(`a script the app did not ship: ${shown(element)}`);
        }
      }
      if (document.getElementById('__xss') || document.getElementsByName('__xss').length > 0)
        problems.push('an element named __xss (DOM clobbering) is in the page');
      for (const body of Array.from(top.querySelectorAll('.post-body'))) {
        for (const element of Array.from(body.querySelectorAll('*'))) {
          if (!postBodyTags.includes(element.tagName.toUpperCase()))
            problems.push(`post body holds ${shown(element)}, not a rich-text element`);
          for (const name of Array.from(element.classList))
            if (!/^ql-[a-z0-9-]+$/.test(name))
              problems.push(`post body holds class "${name}" on ${shown(element)}`);
          if (element.hasAttribute('style'))
            problems.push(`post body holds inline style on ${shown(element)}`);
          if (element.hasAttribute('id') || element.hasAttribute('name'))
            problems.push(`post body holds id or name on ${shown(element)}`);
        }
      }
      return problems;
    },
    [POST_BODY_TAGS, root] as const,
  );
}
