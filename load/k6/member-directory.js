// k6 journey: A member searches the people directory with the queries members make (p95 ≤ 25 ms).
// `k6 run load/k6/member-directory.js`, with -e BASE_URL=… (default http://localhost:8080); see load/k6/README.md.
import { iterate, optionsFor, setupFor, teardownFor } from './driver.js';

export const options = optionsFor('member-directory');

export const setup = () => setupFor('member-directory');

export default (data) => iterate('member-directory', data);

export const teardown = (data) => teardownFor('member-directory', data);
