// The baseline for gateway benchmarks: a bare Express app answering "hello", run as its own process just
// like the gateway, so the two figures differ only by what the gateway does.
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.send('hello');
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
