/**
 * The baseline: a bare Fastify JSON server, the ceiling any Fastify route on this machine can reach.
 * `GET /health` → `{"status":"ok"}` (what the service's own /health answers); `POST /echo` echoes its JSON body.
 * No logging, no hooks, no plugins. Usage: `node dist/bench/baseline-server.js <port>`.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));
app.post('/echo', async (request) => request.body ?? {});

const shutdown = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening on ${port}\n`);
