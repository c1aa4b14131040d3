// The rich-text class rule (ADR 0020: post bodies keep only Quill's own classes): which class names pass, and
// the DOMPurify hook that applies it, keeping Quill's classes of a value and dropping the attribute when none
// is left.
import { describe, expect, it } from 'vitest';
import {
  keepOnlyQuillClasses,
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASS,
  richTextClasses,
  type SanitizedAttribute,
} from '../src/index.ts';

describe('the class rule', () => {
  it.each([
    'ql-ui',
    'ql-align-center',
    'ql-align-right',
    'ql-align-justify',
    'ql-direction-rtl',
    'ql-indent-1',
    'ql-indent-8',
    'ql-size-huge',
    'ql-font-monospace',
  ])('keeps Quill’s %s', (name) => {
    expect(RICH_TEXT_CLASS.test(name)).toBe(true);
  });

  it.each([
    'toast-region',
    'dialog',
    'visually-hidden',
    'ql-evil',
    'ql-evil;',
    'ql-editor',
    'ql-tooltip',
    'ql-hidden',
    'ql-clipboard',
    'ql-align-left',
    'ql-indent-9',
    'ql-indent-10',
    'ql-color-red',
    'QL-ALIGN-CENTER',
    'ql-align-center.toast',
    'xql-ui',
    'ql-uix',
    '',
  ])('refuses %j', (name) => {
    expect(RICH_TEXT_CLASS.test(name)).toBe(false);
  });

  it('keeps Quill’s classes of a value, in order, whatever the spacing', () => {
    expect(richTextClasses('ql-align-right toast  ql-indent-2')).toBe('ql-align-right ql-indent-2');
    expect(richTextClasses('\n ql-ui\t')).toBe('ql-ui');
    expect(richTextClasses('ql-evil; x')).toBe('');
    expect(richTextClasses('')).toBe('');
  });

  it('lets no inline style through at all', () => {
    expect(RICH_TEXT_ATTRIBUTES).not.toContain('style');
  });
});

describe('the sanitizer hook', () => {
  const attribute = (attrName: string, attrValue: string): SanitizedAttribute => ({
    attrName,
    attrValue,
    keepAttr: true,
  });

  it('narrows a class to Quill’s classes', () => {
    const seen = attribute('class', 'toast ql-align-center');
    keepOnlyQuillClasses(null, seen);
    expect(seen).toEqual({ attrName: 'class', attrValue: 'ql-align-center', keepAttr: true });
  });

  it('drops a class with none of Quill’s', () => {
    const seen = attribute('class', 'ql-evil; x');
    keepOnlyQuillClasses(null, seen);
    expect(seen.keepAttr).toBe(false);
  });

  it('leaves every other attribute to the configuration', () => {
    const seen = attribute('href', 'https://example.org/toast');
    keepOnlyQuillClasses(null, seen);
    expect(seen).toEqual({ attrName: 'href', attrValue: 'https://example.org/toast', keepAttr: true });
  });
});
