import type { FastifyInstance } from 'fastify';

/**
 * Stops accepting connections and waits for the requests in flight; after `timeoutMs` the
 * connections still open are closed (their requests get no answer). Requests arriving on kept-alive
 * connections meanwhile get 503 (Fastify's `return503OnClosing`).
 */
export async function closeGracefully(server: FastifyInstance, timeoutMs: number): Promise<{ forced: boolean }> {
    let forced = false;
    const timer = setTimeout(() => {
        forced = true;
        server.server.closeAllConnections();
    }, timeoutMs);
    try {
        await server.close();
    } finally {
        clearTimeout(timer);
    }
    return { forced };
}

/**
 * While the server closes, a request arriving on a kept-alive connection is answered 503 with the
 * usual `{"error": …}` body and `connection: close` (instead of Fastify's own 503 body), before any
 * other hook runs.
 */
export function answerWhileClosing(app: FastifyInstance): void {
    let closing = false;
    app.addHook('preClose', async () => {
        closing = true;
    });
    app.addHook('onRequest', async (_request, reply) => {
        if (!closing) return;
        reply.header('connection', 'close');
        return reply.code(503).type('application/json; charset=utf-8')
            .send({ error: 'the service is shutting down; send the request again once it is back (or to another instance)' });
    });
}
