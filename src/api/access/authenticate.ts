import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import type { ApiKey, ApiKeyRing } from './api-keys.ts';

declare module 'fastify' {
    interface FastifyRequest {
        /** The API key the request came with; null = anonymous (or a route outside access control). */
        apiKey: ApiKey | null;
    }
}

export interface AuthenticationOptions {
    /** null = no keys file: the Authorization header is not looked at. */
    keys: ApiKeyRing | null;
    /** 0 = every request needs a key. */
    anonRps: number;
    /** Paths outside access control (the metrics scrape, the documentation). */
    exempt: (request: FastifyRequest) => boolean;
}

/** Resolves `Authorization: Bearer <key>` for every request before anything else runs; a key it does not know is a 401. */
export function installAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        if (options.exempt(request)) return;
        const header = request.headers.authorization;
        if (options.keys === null || header === undefined) {
            if (options.anonRps === 0) throw unauthorized(reply, 'this service requires an API key: send the header Authorization: Bearer <key>');
            return;
        }
        const match = /^Bearer +(\S+) *$/i.exec(header);
        if (!match) throw unauthorized(reply, `the Authorization header must be 'Bearer <API key>'${options.anonRps > 0 ? ', or leave it out to use the anonymous limit' : ''}`);
        const key = options.keys.find(match[1]);
        if (!key) throw unauthorized(reply, `unknown API key; check the key you were given${options.anonRps > 0 ? ', or leave the Authorization header out to use the anonymous limit' : ''}`);
        request.apiKey = key;
    });
}

function unauthorized(reply: FastifyReply, message: string): ApiError {
    reply.header('www-authenticate', 'Bearer');
    return new ApiError(401, message);
}
