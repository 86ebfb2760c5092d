import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../ton/input.ts';
import { notFound } from '../errors.ts';
import type { Answers } from '../answers/answers.ts';
import { operation } from './route.ts';

export function traceRoutes({ traces }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getTrace', async (request, reply) => {
            const hash = parseHash(request.params.trace_id, 'trace id');
            const answer = await traces.trace(hash);
            if (!answer) throw notFound(`no trace with id or transaction/message hash ${hash} in the index`);
            // The Trace schema has no room for completeness, so it travels in headers.
            reply.header('x-trace-complete', answer.status.complete ? 'true' : 'false');
            reply.header('x-trace-pending', String(answer.status.pending));
            // The body is serialized already (exact integers), so it is sent as the JSON bytes it is.
            reply.type('application/json; charset=utf-8');
            return answer.bytes;
        });
    };
}
