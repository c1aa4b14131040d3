// k6 journey: Someone logs in (argon2id password check) and logs out again.
// `k6 run load/k6/login.js`, with -e BASE_URL=… (default http://localhost:8080); see load/k6/README.md.
import { iterate, optionsFor, setupFor, teardownFor } from './driver.js';

export const options = optionsFor('login');

export const setup = () => setupFor('login');

export default (data) => iterate('login', data);

export const teardown = (data) => teardownFor('login', data);
