/**
 * A liteserver in one call: the key from `<keyDir>/liteserver.key`, the dispatcher over a method
 * table, and the ADNL TCP server. Clients connect with `tcp://host:port` and `publicKey`.
 */
import { join } from 'node:path';
import { AdnlServer, type AdnlServerOptions } from './adnl/adnl-server.ts';
import { loadOrCreateServerKey, SERVER_KEY_FILE_NAME } from './adnl/server-key.ts';
import { createLiteDispatcher, type LiteDispatcherOptions } from './lite-dispatch.ts';

export interface LiteServerOptions extends LiteDispatcherOptions, Omit<AdnlServerOptions, 'key' | 'handler' | 'onError'> {
    /** Folder of the key file; created when missing. */
    keyDir: string;
    /** Failures that are the server's fault; `method` is absent for transport-level ones. */
    onError?: (err: unknown, method?: string) => void;
}

export interface RunningLiteServer {
    readonly host: string;
    readonly port: number;
    /** The ed25519 public key clients must be given (global config `id.key`, base64). */
    readonly publicKey: Buffer;
    close(): Promise<void>;
}

export async function startLiteServer(options: LiteServerOptions): Promise<RunningLiteServer> {
    const key = loadOrCreateServerKey(join(options.keyDir, SERVER_KEY_FILE_NAME));
    const handler = createLiteDispatcher(options);
    const server = await AdnlServer.start({ ...options, key, handler, onError: (err) => options.onError?.(err) });
    return {
        host: server.host,
        port: server.port,
        publicKey: key.publicKey,
        close: () => server.close(),
    };
}
