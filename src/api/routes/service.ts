import type { FastifyInstance } from 'fastify';
import { openapiDocument, openapiYaml } from '../openapi/document.ts';
import type { Answers } from '../answers/answers.ts';
import { operation } from './route.ts';

export function serviceRoutes({ service }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getOpenapiJson', async () => openapiDocument);
        operation(app, 'getOpenapiYml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').serializer(String).send(openapiYaml));

        operation(app, 'getStatus', async () => service.status());
    };
}
