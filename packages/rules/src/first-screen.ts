// Where the page the gateway draws carries the data of its first screen (ADR 0053), as JSON in a
// <script type="application/json"> of these ids: the gateway writes it, the shell leaves out its early request
// when it is there, and mf-feed starts from it instead of asking the server again.

/** The public square's first feed page, as POST /api/posts/all answers it. */
export const FIRST_FEED_ELEMENT_ID = 'rotunda-first-feed';
/** The post at its own address, as GET /api/posts/:id answers it. */
export const FIRST_POST_ELEMENT_ID = 'rotunda-first-post';

/** Marks the markup the gateway drew in #root, which the shell keeps in sight until the remote has drawn its own. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';
/** Sent on the window by a remote once its first screen is drawn (its data shown, or its error or not-found). */
export const FIRST_SCREEN_DRAWN_EVENT = 'rotunda:first-screen-drawn';

/**
 * The class names of the shell's frame (its Layout and TopBar), which the gateway draws around the first screen for
 * a visitor so that the take-over moves nothing.
 */
export const FRAME_CLASSES = {
  app: 'app',
  skipLink: 'skip-link',
  topbar: 'topbar',
  topbarStart: 'topbar__start',
  topbarEnd: 'topbar__end',
  topbarMenu: 'topbar__menu',
  iconButton: 'icon-button',
  brand: 'brand',
  body: 'app__body',
  main: 'app__main',
  footer: 'app__footer',
} as const;
