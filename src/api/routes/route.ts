import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeSchemaFor } from '../route-schema.ts';

/** Validated input: shapes are guaranteed by the operation's schemas from the OpenAPI document. */
export type ValidatedRequest = FastifyRequest & { params: any; query: any; body: any };
export type Handler = (request: ValidatedRequest, reply: FastifyReply) => Promise<unknown>;

/** Registers the handler of one documented operation, validating requests with its schemas. */
export function operation(app: FastifyInstance, operationId: string, handler: Handler): void {
    const { method, url, schema } = routeSchemaFor(operationId);
    app.route({ method: method as 'GET' | 'POST', url, schema, handler: handler as never });
}
