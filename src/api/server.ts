import { STATUS_CODES } from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { InputFormatError } from '../ton/input.ts';
import { EmulationFailure, type EmulationFailureKind } from '../emulation/errors.ts';
import { InvalidWalletBodyError, UnsupportedWalletError } from '../risk/errors.ts';
import { ApiError, type ErrorBody } from './errors.ts';
import { toJson, toJsonBody } from '../json/json.ts';
import { openapiDocument } from './openapi/document.ts';
import { parseExactJson } from '../json/exact-json.ts';
import type { ErrorObject } from 'ajv';
import { requestValidator, validationMessage } from './validation.ts';
import { documentedRoutes } from './route-schema.ts';
import type { ApiServices } from './services.ts';
import { storeUnavailable } from '../store/unavailable.ts';
import { REQUEST_ID_HEADER, requestIdFrom, type LogLevel, type LogSink } from '../observability/logging.ts';
import { ServiceMetrics } from '../observability/metrics.ts';
import { installObservability, noteEmulationFailure } from './http-observability.ts';
import { answerWhileClosing } from './graceful-close.ts';
import { installCors, allowedOriginHeader } from './access/cors.ts';
import { installAccessLimits, type AccessOptions } from './access/access-limits.ts';
import { emulationRoutes } from './routes/emulation.ts';
import { blockchainRoutes } from './routes/blockchain.ts';
import { traceRoutes } from './routes/traces.ts';
import { serviceRoutes } from './routes/service.ts';
import { devnetRoutes } from './routes/devnet.ts';
import { jettonRoutes } from './routes/jettons.ts';
import { walletRoutes } from './routes/wallets.ts';
import { rewardsRoutes } from './routes/rewards.ts';
import { multisigRoutes } from './routes/multisig.ts';
import { createAnswers } from './answers/answers.ts';

export interface ServerOptions {
    /** Shorthand for `logLevel: 'info'` with a line per request. */
    logger?: boolean;
    /** Level of the JSON log lines (Fastify's pino logger); default silent, or info with `logger`. */
    logLevel?: LogLevel;
    /** A log line per request and response (at info); also on at debug and trace. */
    logRequests?: boolean;
    /** Where the JSON log lines go (default stderr). */
    logStream?: LogSink;
    /** The service's metrics, served at `/metrics`; a new set when absent. */
    metrics?: ServiceMetrics;
    /** Largest accepted request body in bytes. */
    bodyLimit?: number;
    /** API keys and rate limits; absent = every request is served (tests that do not exercise them). */
    access?: AccessOptions;
    /** Origins browsers may call from (`@fastify/cors`); default `['*']`, any. */
    corsOrigins?: string[];
    /** Requests still running after this many ms are answered 503; absent = no limit. */
    requestTimeoutMs?: number;
    /** The emulation time budget: emulation requests get at least this plus a second, so their own 504 comes first. */
    emulationTimeoutMs?: number;
    /** Proxies trusted to name the client in X-Forwarded-For (Fastify's `trustProxy`): addresses/CIDRs or a hop count. */
    trustProxy?: string[] | number;
}

/** Fastify's `trustProxy` (addresses/CIDRs or a hop count; none = the socket's address is the client's). */
function trustedProxies(setting: string[] | number | undefined): FastifyServerOptions['trustProxy'] {
    // A hop count as the function it means (Fastify takes a number too, but its types do not say so).
    if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
    return setting ?? false;
}

/** Time an emulation request has beyond its emulation budget (reading the chain, presenting the result). */
const EMULATION_TIMEOUT_GRACE_MS = 1000;

export async function buildServer(services: ApiServices, options: ServerOptions = {}): Promise<FastifyInstance> {
    const level = options.logLevel ?? (options.logger ? 'info' : 'silent');
    const corsOrigins = options.corsOrigins ?? ['*'];
    const app = Fastify({
        logger: level === 'silent' ? false : { level, stream: options.logStream ?? process.stderr },
        logController: new LogController({ disableRequestLogging: !(options.logger || options.logRequests || level === 'debug' || level === 'trace') }),
        // Every request gets an id (the caller's x-request-id when sane), logged with it and echoed in the response.
        requestIdHeader: false,
        genReqId: request => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
        // Requests arriving while the server drains get our own 503 (answerWhileClosing).
        return503OnClosing: false,
        bodyLimit: options.bodyLimit ?? 1024 * 1024,
        // Fastify's own per-request timeout: a 503 through the error handler (FST_ERR_HANDLER_TIMEOUT).
        handlerTimeout: options.requestTimeoutMs ?? 0,
        trustProxy: trustedProxies(options.trustProxy),
        ajv: undefined,
        // Router-level failures (undecodable URL, over-long path parameter) skip the error handler;
        // without this Fastify answers them with its own body, not the `{"error": …}` one.
        frameworkErrors: (error, request, reply: FastifyReply) => {
            reply.header(REQUEST_ID_HEADER, request.id);
            // The CORS hook has not run: the same allow-origin answer, so browsers can read the error.
            const origin = allowedOriginHeader(corsOrigins, request.headers.origin);
            if (origin) reply.header('access-control-allow-origin', origin);
            if (origin !== '*') reply.header('vary', 'Origin');
            reply.code(error.statusCode ?? 400).type('application/json; charset=utf-8').send(toJson({ error: error.message }));
        },
        // Requests Node's HTTP parser refuses (headers over 16 KB, malformed lines) never reach Fastify's
        // routing; they get the same `{"error": …}` body.
        clientErrorHandler: (error: Error & { code?: string }, socket) => {
            if (error.code === 'ECONNRESET' || !socket.writable) {
                socket.destroy();
                return;
            }
            const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
            const text = status === 431 ? 'request headers are too large (at most 16 KB)' : status === 408 ? 'the request took too long to arrive' : 'malformed HTTP request';
            const body = toJson({ error: text });
            // The request's Origin is unknown here: only an allow-any configuration can say it.
            const cors = allowedOriginHeader(corsOrigins, undefined) ? 'access-control-allow-origin: *\r\n' : '';
            socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n`
                + `${cors}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        },
    });
    installValidation(app);
    installErrorHandling(app);
    installObservability(app, options.metrics ?? new ServiceMetrics());
    answerWhileClosing(app);
    // Fastify sends a Buffer the serializer returns as it is, though its type says string.
    app.setReplySerializer(payload => toJsonBody(payload) as string);
    // CORS first, so that 401 and 429 answers carry its headers; preflights are answered before keys and limits.
    await installCors(app, corsOrigins);
    if (options.access) await installAccessLimits(app, options.access);
    const requestTimeoutMs = options.requestTimeoutMs;
    if (requestTimeoutMs) {
        const emulationTimeoutMs = (options.emulationTimeoutMs ?? 0) + EMULATION_TIMEOUT_GRACE_MS;
        app.addHook('onRoute', route => {
            if (route.url.includes('/emulate')) route.handlerTimeout = Math.max(requestTimeoutMs, emulationTimeoutMs);
        });
    }

    await app.register(swagger, { mode: 'static', specification: { document: openapiDocument as never } });
    await app.register(swaggerUi, { routePrefix: '/docs' });

    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/docs', 302));
    const answers = createAnswers(services);
    await app.register(serviceRoutes(answers));
    await app.register(blockchainRoutes(services, answers));
    await app.register(traceRoutes(answers));
    await app.register(devnetRoutes(services, answers));
    await app.register(jettonRoutes(answers));
    await app.register(walletRoutes(answers));
    await app.register(emulationRoutes(services));
    await app.register(multisigRoutes(answers));
    await app.register(rewardsRoutes(services));
    return app;
}

function installValidation(app: FastifyInstance): void {
    // Query and path values arrive as text and are coerced; bodies are JSON and are not.
    const coercing = requestValidator(true);
    const exact = requestValidator(false);
    // JSON only: Fastify's own text/plain parser would hand a string to routes that take JSON objects (a 400 instead of 415).
    app.removeContentTypeParser('text/plain');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
        const body = String(text);
        if (body.trim() === '') return done(Object.assign(new Error('empty body'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }), undefined);
        try {
            done(null, parseExactJson(body));
        } catch (error) {
            done(Object.assign(new Error((error as Error).message), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined);
        }
    });
    app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema));
    app.setSchemaErrorFormatter((errors, dataVar) => new Error(validationMessage(errors as ErrorObject[], dataVar)));
}

/** The response to each kind of emulation failure. */
const EMULATION_STATUS: Record<EmulationFailureKind, number> = {
    invalid_input: 400,
    rejected: 406,
    insufficient_funds: 409,
    too_many_transactions: 413,
    timeout: 504,
    unavailable: 503,
};

/** Error code of a wallet that lacks the native coin for what it sends (spec §7). */
const INSUFFICIENT_FUNDS_CODE = 50000;

function installErrorHandling(app: FastifyInstance): void {
    const routes = documentedRoutes();
    const send = (reply: FastifyReply, status: number, body: ErrorBody) =>
        reply.code(status).type('application/json; charset=utf-8').send(body);

    /** A request no route matched: 405 with `Allow` when its path exists under other methods, else 404. */
    const unmatched = (request: FastifyRequest, reply: FastifyReply) => {
        const path = request.url.split('?')[0];
        const allowed = routes.filter(r => r.pattern.test(path)).flatMap(r => r.methods);
        if (allowed.length > 0 && !allowed.includes(request.method)) {
            reply.header('allow', [...new Set(allowed)].join(', '));
            return send(reply, 405, { error: `method ${request.method} is not allowed on ${path}; use ${[...new Set(allowed)].join(' or ')}` });
        }
        return send(reply, 404, { error: `no such endpoint: ${request.method} ${path}` });
    };
    app.setNotFoundHandler(unmatched);

    app.setErrorHandler((error: FastifyError | Error, request, reply) => {
        // Fastify parses the body of a request before it finds no route for it (e.g. `QUERY /v2/status`
        // without a content type): the answer is still about the route.
        if (request.is404) return unmatched(request, reply);
        if (error instanceof ApiError) {
            return send(reply, error.statusCode, { error: error.message, error_code: error.errorCode, details: error.details });
        }
        if (error instanceof InputFormatError) return send(reply, 400, { error: error.message });
        if (error instanceof EmulationFailure) {
            noteEmulationFailure(request, error.kind);
            const code = error.kind === 'insufficient_funds' ? INSUFFICIENT_FUNDS_CODE : undefined;
            return send(reply, EMULATION_STATUS[error.kind], { error: error.message, error_code: code, details: error.details });
        }
        // A wallet whose messages risk cannot read: the request names something wallet/emulate does not support.
        if (error instanceof UnsupportedWalletError || error instanceof InvalidWalletBodyError) return send(reply, 400, { error: error.message });
        const fastifyError = error as FastifyError;
        if (fastifyError.validation) return send(reply, 400, { error: fastifyError.message });
        switch (fastifyError.code) {
            case 'FST_ERR_CTP_BODY_TOO_LARGE':
                return send(reply, 413, { error: 'request body is too large' });
            case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
                return send(reply, 415, { error: `unsupported content type '${request.headers['content-type'] ?? ''}'; send application/json` });
            case 'FST_ERR_CTP_EMPTY_JSON_BODY':
                return send(reply, 400, { error: 'request body is empty; send a JSON object' });
            case 'FST_ERR_CTP_INVALID_JSON_BODY':
                return send(reply, 400, { error: `request body is not valid JSON: ${fastifyError.message}` });
            case 'FST_ERR_HANDLER_TIMEOUT':
                request.log.warn({ err: error }, 'request timed out');
                return send(reply, 503, { error: `the request did not finish within ${request.routeOptions.handlerTimeout} ms; try again later, or ask for less (a smaller page or range)` });
        }
        if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
            return send(reply, fastifyError.statusCode, { error: fastifyError.message });
        }
        const unavailable = storeUnavailable(error);
        if (unavailable) {
            request.log.warn({ err: error }, unavailable.detail);
            reply.header('retry-after', '5');
            return send(reply, 503, { error: unavailable.message });
        }
        request.log.error({ err: error }, 'unhandled error');
        return send(reply, 500, { error: 'internal error' });
    });
}
