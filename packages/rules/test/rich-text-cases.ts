// The class and style rule's cases, run through both sanitizers with their own DOMPurify (the post service's on
// jsdom before storing, the feed's in the browser before showing): the same body must come out the same on both
// sides. Links are left out: the browser adds target and rel to them on top of the shared rule.

/** [what it tries, the body as sent, the body as kept] */
export const RICH_TEXT_CLASS_CASES: readonly (readonly [string, string, string])[] = [
  [
    'an overlay borrowing the app’s own fixed toast classes',
    '<p class="toast-region toast">Your session has ended. Sign in again at rotunda-login.example</p>',
    '<p>Your session has ended. Sign in again at rotunda-login.example</p>',
  ],
  [
    'a dialog and a hidden text borrowing the app’s classes',
    '<span class="dialog dialog__panel">Site closed</span><span class="visually-hidden">hidden</span>',
    '<span>Site closed</span><span>hidden</span>',
  ],
  [
    'an inline style drawing a fixed layer over the page',
    '<p style="position:fixed;inset:0;z-index:9999;background:#fff">Site closed</p>',
    '<p>Site closed</p>',
  ],
  ['any inline style', '<p><span style="color: red">red</span></p>', '<p><span>red</span></p>'],
  [
    'Quill’s alignment class',
    '<p class="ql-align-center">Centered</p>',
    '<p class="ql-align-center">Centered</p>',
  ],
  [
    'Quill’s list item marker',
    '<ol><li data-list="bullet"><span class="ql-ui" contenteditable="false"></span>One</li></ol>',
    '<ol><li data-list="bullet"><span class="ql-ui"></span>One</li></ol>',
  ],
  [
    'Quill’s classes kept, the others of the same value dropped',
    '<p class="ql-align-right toast ql-indent-2">Both</p>',
    '<p class="ql-align-right ql-indent-2">Both</p>',
  ],
  ['a class value with a separator in it', '<p class="ql-evil; x">x</p>', '<p>x</p>'],
  ['a ql- class Quill has no format for', '<p class="ql-evil">x</p>', '<p>x</p>'],
  ['the editor’s own chrome', '<span class="ql-tooltip ql-editing ql-hidden">x</span>', '<span>x</span>'],
  ['a value outside a format’s range', '<p class="ql-indent-9 ql-align-left">x</p>', '<p>x</p>'],
  ['class names run together', '<p class="ql-align-center.toast">x</p>', '<p>x</p>'],
  ['Quill’s class in capitals', '<p class="QL-ALIGN-CENTER">x</p>', '<p>x</p>'],
  ['spaces around a kept class', '<p class="  ql-align-center\n ">x</p>', '<p class="ql-align-center">x</p>'],
  ['an id the page’s styles or scripts might know', '<p id="root">x</p>', '<p>x</p>'],
];
