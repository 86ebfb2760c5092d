/**
 * A TCP server speaking ADNL the way TON liteservers do, for clients such as ton-lite-client.
 * It knows nothing of the lite API: each query's bytes go to one async handler.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { AdnlConnection, type AdnlQueryHandler } from './adnl-connection.ts';
import type { ServerKey } from './server-key.ts';

export type { AdnlQueryHandler } from './adnl-connection.ts';

export interface AdnlServerOptions {
    key: ServerKey;
    handler: AdnlQueryHandler;
    /** Default 127.0.0.1. */
    host?: string;
    /** 0 (the default) picks a free port; read it from `port` after start. */
    port?: number;
    /** A connection with no traffic either way for this long is closed. Default 60 s, as TON's. */
    idleTimeoutMs?: number;
    /** Queries of one connection answered concurrently; further ones wait (and the socket stops being read). Default 32. */
    maxInFlightQueriesPerConnection?: number;
    /** Default 1024. */
    maxConnections?: number;
    /** Failures that lose an answer. Default: ignored (the client's query times out). */
    onError?: (err: unknown) => void;
}

export class AdnlServer {
    private readonly connections = new Set<AdnlConnection>();

    private constructor(private readonly server: Server) {}

    static async start(options: AdnlServerOptions): Promise<AdnlServer> {
        const connectionOptions = {
            key: options.key,
            handler: options.handler,
            idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
            maxInFlightQueries: options.maxInFlightQueriesPerConnection ?? 32,
            onError: options.onError ?? (() => {}),
        };
        const server = createServer();
        const adnl = new AdnlServer(server);
        server.maxConnections = options.maxConnections ?? 1024;
        server.on('connection', (socket) => {
            const connection = new AdnlConnection(socket, connectionOptions, (closed) => adnl.connections.delete(closed));
            adnl.connections.add(connection);
        });
        await new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
                server.off('error', reject);
                resolve();
            });
        });
        // Accept-time errors (e.g. EMFILE) must not become uncaught exceptions.
        server.on('error', (err) => connectionOptions.onError(err));
        return adnl;
    }

    get port(): number {
        return (this.server.address() as AddressInfo).port;
    }

    get host(): string {
        return (this.server.address() as AddressInfo).address;
    }

    get connectionCount(): number {
        return this.connections.size;
    }

    /** Stops listening and ends every connection. */
    async close(): Promise<void> {
        const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
        for (const connection of [...this.connections]) connection.close();
        await closed;
    }
}
