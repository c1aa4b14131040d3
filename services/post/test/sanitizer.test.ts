// The body sanitizer with the shared rich-text configuration: XSS payloads leave nothing that runs (scripts, event
// handlers, javascript: and data: links, frames, SVG and MathML tricks), the editor's formats survive (bold,
// italic, underline, both kinds of list, links that open in a new tab), only Quill's own classes and no inline
// style (the cases the feed's sanitizer runs too), and the visible text the search holds.
import { afterAll, describe, expect, it } from 'vitest';
import { RICH_TEXT_CLASS_CASES } from '../../../packages/rules/test/rich-text-cases.ts';
import { createBodySanitizer } from '../src/adapters/body-sanitizer.ts';

const sanitizer = createBodySanitizer();
afterAll(() => sanitizer.close());
const clean = (html: string) => sanitizer.sanitize(html).html;

describe('what never survives', () => {
  it.each([
    ['<p>Hi</p><script>alert(1)</script>', '<p>Hi</p>'],
    ['<p>Hi<script src="https://evil.example/x.js"></script></p>', '<p>Hi</p>'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<p onclick="alert(1)" onmouseover="alert(2)">Hi</p>', '<p>Hi</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', ''],
    ['<iframe src="https://evil.example"></iframe>text', 'text'],
    ['<svg><a href="javascript:alert(1)"><text>s</text></a></svg>', ''],
    ['<math><mi xlink:href="javascript:alert(1)">m</mi></math>', ''],
    ['<details open ontoggle=alert(1)>x</details>', 'x'],
    ['<p style="background:url(javascript:alert(1))">styled</p>', '<p>styled</p>'],
    ['<form action="https://evil.example"><input name="x"></form>', ''],
    ['<object data="x.swf"></object><embed src="x.swf">', ''],
  ])('%s', (dirty, expected) => {
    expect(clean(dirty)).toBe(expected);
  });

  it('keeps escaped markup as text, never as markup', () => {
    expect(clean('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });
});

describe('what the editor makes', () => {
  it('keeps bold, italic, underline, both lists and paragraphs', () => {
    const body =
      '<p><strong>Bold</strong> <em>italic</em> <u>underlined</u></p><ol><li data-list="ordered">one</li>' +
      '<li data-list="bullet">two</li></ol><ul><li>three</li></ul><p><br></p>';
    expect(clean(body)).toBe(body);
  });

  it('keeps web, mail and phone links with their new-tab attributes', () => {
    const links =
      '<a href="https://example.org/a?b=1" target="_blank" rel="noopener noreferrer">web</a>' +
      '<a href="mailto:press@example.org">mail</a><a href="tel:+19165550100">call</a>';
    expect(clean(`<p>${links}</p>`)).toBe(`<p>${links}</p>`);
  });

  it('keeps the alignment class and drops inline styles', () => {
    expect(clean('<p class="ql-align-center" style="color: red">c</p>')).toBe(
      '<p class="ql-align-center">c</p>',
    );
  });
});

describe('classes and styles: Quill’s own classes only, no inline style (the same cases as the feed)', () => {
  it.each(RICH_TEXT_CLASS_CASES)('%s', (_what, dirty, expected) => {
    expect(clean(dirty)).toBe(expected);
  });
});

describe('visible text', () => {
  it('separates paragraphs and list items, decodes entities and collapses whitespace', () => {
    const { text } = sanitizer.sanitize(
      '<p>Water &amp; <strong>power</strong></p><p>plan</p><ol><li>one</li><li>two</li></ol>line<br>break',
    );
    expect(text).toBe('Water & power plan one two line break');
  });

  it('is empty for a body with nothing to read', () => {
    for (const body of [
      '<p><br></p>',
      '<p>   </p>',
      '<script>x</script>',
      '<img src=x onerror=alert(1)>',
      '',
    ])
      expect(sanitizer.sanitize(body).text).toBe('');
  });

  it('holds no markup or link addresses', () => {
    expect(sanitizer.sanitize('<p><a href="https://example.org/hidden">shown</a></p>').text).toBe('shown');
  });
});
