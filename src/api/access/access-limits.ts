import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyRing } from './api-keys.ts';
import { installAuthentication } from './authenticate.ts';
import { installRateLimits } from './rate-limits.ts';
import { connectLimitsRedis } from './redis-client.ts';

export interface AccessOptions {
    /** The keys of `--api-keys`; null = no keys (every client is anonymous). */
    keys: ApiKeyRing | null;
    /** Requests per second per client address without a key; 0 = a key is required. */
    anonRps: number;
    /** `--redis`: limits shared by every API process on this Redis; absent = in memory. */
    redisUrl?: string;
    /** Prefix of the limit counters in Redis (default `native-explorer:rate-limit:`). */
    redisPrefix?: string;
    /** Counting window in ms (default 1000: limits are per second). */
    windowMs?: number;
    log?: (line: string) => void;
    /** API processes counting limits in their own memory on one port: each takes its part (see RateLimitOptions). */
    inMemoryShares?: number;
}

/** The metrics scrape and the documentation are outside keys and limits. */
export function isExemptFromAccessLimits(request: FastifyRequest): boolean {
    const path = request.url.split('?')[0];
    return path === '/metrics' || path === '/docs' || path.startsWith('/docs/');
}

/** API keys and rate limits for every route registered after this call. */
export async function installAccessLimits(app: FastifyInstance, options: AccessOptions): Promise<void> {
    const log = options.log ?? (() => undefined);
    installAuthentication(app, { keys: options.keys, anonRps: options.anonRps, exempt: isExemptFromAccessLimits });
    const redis = options.redisUrl ? await connectLimitsRedis(options.redisUrl, log) : null;
    if (redis) app.addHook('onClose', async () => redis.disconnect());
    await installRateLimits(app, {
        anonRps: options.anonRps,
        windowMs: options.windowMs ?? 1000,
        redis,
        redisPrefix: options.redisPrefix ?? 'native-explorer:rate-limit:',
        exempt: isExemptFromAccessLimits,
        inMemoryShares: options.inMemoryShares,
    });
}
