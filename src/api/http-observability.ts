import type { FastifyInstance, FastifyRequest } from 'fastify';
import { openapiDocument } from './openapi/document.ts';
import type { EmulationFailureKind } from '../emulation/errors.ts';
import { REQUEST_ID_HEADER } from '../observability/logging.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';

/** Label of requests no route matched (404, 405): one series, whatever the URL. */
const UNMATCHED = 'unmatched';

/** `METHOD /fastify/:style/url` → operationId, for every operation of the OpenAPI document. */
function documentedOperations(): Map<string, string> {
    const operations = new Map<string, string>();
    const paths = openapiDocument.paths as Record<string, Record<string, { operationId?: string }>>;
    for (const [path, item] of Object.entries(paths)) {
        const url = path.replace(/\{([^}]+)\}/g, ':$1');
        for (const [method, op] of Object.entries(item)) {
            if (op && typeof op === 'object' && typeof op.operationId === 'string') operations.set(`${method.toUpperCase()} ${url}`, op.operationId);
        }
    }
    return operations;
}

const emulationFailures = new WeakMap<FastifyRequest, EmulationFailureKind>();

/** Records why an emulation request failed, for the `emulations_total` outcome label. */
export function noteEmulationFailure(request: FastifyRequest, kind: EmulationFailureKind): void {
    emulationFailures.set(request, kind);
}

/**
 * Request ids in responses, latency and emulation metrics for every request, and `GET /metrics`
 * (not in the OpenAPI document). Latency is labelled by operation, never by raw URL, so the number
 * of series stays bounded.
 */
export function installObservability(app: FastifyInstance, metrics: ServiceMetrics): void {
    const operations = documentedOperations();
    const operationOf = (request: FastifyRequest): string => {
        const url = request.routeOptions.url;
        if (url === undefined || request.is404) return UNMATCHED;
        const method = request.method === 'HEAD' ? 'GET' : request.method;
        return operations.get(`${method} ${url}`) ?? url;
    };

    app.addHook('onRequest', async (request, reply) => {
        reply.header(REQUEST_ID_HEADER, request.id);
    });
    app.addHook('onResponse', async (request, reply) => {
        const operation = operationOf(request);
        const status = reply.statusCode;
        metrics.observeRequest(operation, request.method, status, reply.elapsedTime / 1000);
        if (operation.startsWith('emulate')) {
            const outcome = emulationFailures.get(request) ?? (status < 400 ? 'ok' : status < 500 ? 'invalid_request' : 'error');
            metrics.countEmulation(operation, outcome);
        }
    });

    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
        const text = await metrics.text();
        return reply.type(metrics.contentType).serializer(String).send(text);
    });
}
