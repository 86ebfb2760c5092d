import type { FastifyInstance } from 'fastify';
import { ConfigError, anonymousRps, type ServiceConfig } from '../../config/config.ts';
import type { ServerOptions } from '../server.ts';
import { ApiKeyRing, ApiKeysFileError, readApiKeysFile } from './api-keys.ts';
import { reloadApiKeysOnSighup } from './keys-reload.ts';

type Log = (line: string, level: 'warn' | 'info') => void;

/** The keys of `--api-keys`, read before the service starts: a file that does not read stops the start. */
export function loadApiKeyRing(config: Pick<ServiceConfig, 'apiKeys'>): ApiKeyRing | null {
    if (config.apiKeys === '') return null;
    try {
        return new ApiKeyRing(readApiKeysFile(config.apiKeys));
    } catch (error) {
        if (error instanceof ApiKeysFileError) throw new ConfigError(`--api-keys: ${error.message}`);
        throw error;
    }
}

/** What the server needs of the access and limit settings. */
export function serverAccessOptions(config: ServiceConfig, keys: ApiKeyRing | null, log: Log): Pick<ServerOptions, 'access' | 'corsOrigins' | 'requestTimeoutMs' | 'emulationTimeoutMs' | 'trustProxy'> {
    return {
        access: { keys, anonRps: anonymousRps(config), redisUrl: config.redisUrl || undefined, log: line => log(line, 'warn') },
        corsOrigins: config.corsOrigins,
        requestTimeoutMs: config.requestTimeoutMs,
        emulationTimeoutMs: config.emulationTimeoutMs,
        trustProxy: config.trustProxy ?? undefined,
    };
}

/** SIGHUP rereads the keys file while the server runs; a bad file keeps the keys in force (and says why in the log). */
export function reloadKeysWhileServing(server: FastifyInstance, keys: ApiKeyRing | null, path: string, log: Log): void {
    if (!keys) return;
    const stop = reloadApiKeysOnSighup(keys, path, log);
    server.addHook('onClose', async () => stop());
}
