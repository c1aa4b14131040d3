// k6 journey: A member posts, comments on the post, then deletes it (leftovers of a cut-off run deleted in teardown).
// `k6 run load/k6/member-posts.js`, with -e BASE_URL=… (default http://localhost:8080); see load/k6/README.md.
import { iterate, optionsFor, setupFor, teardownFor } from './driver.js';

export const options = optionsFor('member-posts');

export const setup = () => setupFor('member-posts');

export default (data) => iterate('member-posts', data);

export const teardown = (data) => teardownFor('member-posts', data);
