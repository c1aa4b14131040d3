// Loads the ALTCHA web component (<altcha-widget>) without its inline blob workers, and gives it a
// same-origin worker for the SHA challenges the server issues (GET /auth/captcha: algorithm, challenge,
// maxnumber, salt, signature): the gateway's Content-Security-Policy (script-src 'self') refuses blob:
// workers. The worker script is emitted as a plain asset (?url), untouched by the bundler. The widget's
// stylesheet comes from the package too.
import 'altcha/external';
import 'altcha/altcha.css';
import shaWorkerUrl from 'altcha/workers/sha';

const shaWorker = () => new Worker(shaWorkerUrl, { name: 'altcha-sha' });

for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) {
  globalThis.$altcha.algorithms.set(algorithm, shaWorker);
}
