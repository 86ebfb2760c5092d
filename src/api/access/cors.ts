import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';

/** `['*']` allows any origin; otherwise exact origins such as `https://explorer.example`. */
export type CorsOrigins = string[];

const ANY = '*';

export async function installCors(app: FastifyInstance, origins: CorsOrigins): Promise<void> {
    await app.register(cors, {
        origin: origins.includes(ANY) ? ANY : origins,
        methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
        allowedHeaders: ['Content-Type', 'Accept-Language', 'Authorization', 'X-Request-Id'],
        exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'],
        maxAge: 600,
        // Any OPTIONS request is answered as a preflight (204), never with a text/plain 400.
        strictPreflight: false,
    });
}

/**
 * The `Access-Control-Allow-Origin` value for answers written before the CORS hook runs (router
 * and HTTP parser errors); undefined when the origin is not allowed or not known.
 */
export function allowedOriginHeader(origins: CorsOrigins, requestOrigin: string | undefined): string | undefined {
    if (origins.includes(ANY)) return ANY;
    return requestOrigin !== undefined && origins.includes(requestOrigin) ? requestOrigin : undefined;
}
