import { createServer } from 'node:http';

/**
 * The floor under an API row: a bare node:http server that answers every request with the same
 * bytes (a JSON string of the size given), no store and no framework. Run in its own process, as
 * the API server is; prints its address.
 */
const size = Number(process.argv[2]);
if (!Number.isSafeInteger(size) || size < 2) throw new Error(`usage: static-answer.ts <bytes ≥ 2>, not ${process.argv[2]}`);
const body = Buffer.alloc(size, 'a');
body[0] = body[size - 1] = 0x22;
const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': size });
    response.end(body);
});
server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.stdout.write(`serving http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
