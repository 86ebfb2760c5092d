import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.ts';

export interface RateLimitOptions {
    /** Requests per second of one client address without an API key (0: none get through authentication). */
    anonRps: number;
    /** Length of one counting window; limits are `rps × window`. Tests lengthen it so that no request races a window's end. */
    windowMs: number;
    /** Counters shared by every process on this Redis; null = in this process's memory. */
    redis: Redis | null;
    /** Prefix of the counters' Redis keys. */
    redisPrefix: string;
    exempt: (request: FastifyRequest) => boolean;
    /**
     * Processes that share the port and count in their own memory (`serve --workers`): each takes
     * its part of every budget, rounded up (about the whole budget in all, as requests spread
     * evenly over them). Ignored with Redis, whose counters are shared. Default 1.
     */
    inMemoryShares?: number;
}

/**
 * Limits every route registered after this call (fixed windows per API key, else per client
 * address) with @fastify/rate-limit; an exhausted budget is a 429 with `Retry-After` and the error
 * body. A Redis failure lets the request through (skipOnError): a limiter outage must not become
 * an API outage.
 */
export async function installRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
    const shares = options.redis ? 1 : Math.max(1, options.inMemoryShares ?? 1);
    const perWindow = (rps: number) => Math.max(1, Math.round(Math.ceil(rps / shares) * options.windowMs / 1000));
    const windowText = options.windowMs === 1000 ? 'second' : `${options.windowMs / 1000} seconds`;
    await app.register(rateLimit, {
        global: true,
        hook: 'onRequest',
        timeWindow: options.windowMs,
        max: request => perWindow(request.apiKey?.rps ?? options.anonRps),
        keyGenerator: request => (request.apiKey ? `key:${request.apiKey.name}` : `ip:${request.ip}`),
        allowList: request => options.exempt(request),
        skipOnError: true,
        ...(options.redis ? { redis: options.redis, nameSpace: options.redisPrefix } : {}),
        errorResponseBuilder: (request, context) => {
            const limit = `at most ${context.max} requests per ${windowText}`;
            const message = request.apiKey
                ? `too many requests for API key '${request.apiKey.name}' (${limit}); retry after ${context.after}`
                : `too many requests from ${request.ip} without an API key (${limit}); retry after ${context.after}, or send an API key (Authorization: Bearer <key>) for a limit of its own`;
            return new ApiError(context.statusCode, message);
        },
    });
}
