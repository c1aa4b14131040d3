// k6 journey: A visitor reads the public square: the first page, the next page, the first page of one post type.
// `k6 run load/k6/visitor-feed.js`, with -e BASE_URL=… (default http://localhost:8080); see load/k6/README.md.
import { iterate, optionsFor, setupFor, teardownFor } from './driver.js';

export const options = optionsFor('visitor-feed');

export const setup = () => setupFor('visitor-feed');

export default (data) => iterate('visitor-feed', data);

export const teardown = (data) => teardownFor('visitor-feed', data);
