// Where the page the gateway draws carries the data of its first screen (ADR 0053), as JSON in a
// <script type="application/json"> of these ids: the gateway writes it, the shell leaves out its early request
// when it is there, and mf-feed starts from it instead of asking the server again.

/** The public square's first feed page, as POST /api/posts/all answers it. */
export const FIRST_FEED_ELEMENT_ID = 'rotunda-first-feed';
/** The post at its own address, as GET /api/posts/:id answers it. */
export const FIRST_POST_ELEMENT_ID = 'rotunda-first-post';
