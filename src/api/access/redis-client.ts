import { Redis } from 'ioredis';

/**
 * A Redis connection for shared rate limits that never holds a request up: commands fail at once
 * while the connection is down (the limiter then lets requests through), and ioredis keeps
 * reconnecting in the background. Outages are logged when they start and when they end.
 */
export async function connectLimitsRedis(url: string, log: (line: string) => void): Promise<Redis> {
    const where = redactedUrl(url);
    const redis = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        connectTimeout: 2000,
        retryStrategy: attempt => Math.min(attempt * 200, 5000),
    });
    let down = false;
    redis.on('error', (error: Error) => {
        if (down) return;
        down = true;
        log(`rate limits: Redis at ${where} is unavailable (${error.message}); requests are not limited until it is back`);
    });
    redis.on('ready', () => {
        if (!down) return;
        down = false;
        log(`rate limits: Redis at ${where} is back; limits are shared again`);
    });
    try {
        await redis.connect();
    } catch {
        // Logged by the error event; the connection keeps retrying.
    }
    return redis;
}

function redactedUrl(url: string): string {
    try {
        const parsed = new URL(url);
        if (parsed.password) parsed.password = '***';
        return parsed.toString();
    } catch {
        return 'the configured URL';
    }
}
