import { AssertionError } from 'node:assert';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createOpenapiAjv, OPENAPI_SCHEMA_ID, openapiDocument } from '../../src/api/openapi/document.ts';

/**
 * Checks response bodies against the OpenAPI document, so every API test also proves the
 * document and the implementation agree (stray fields fail: response objects are closed).
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

let ajv: ReturnType<typeof createOpenapiAjv> | undefined;
const validators = new Map<string, ValidateFunction>();

function sharedAjv(): ReturnType<typeof createOpenapiAjv> {
    ajv ??= createOpenapiAjv();
    return ajv;
}

/** JSON pointer segment, also made safe inside a URI fragment (`{` `}` in path templates). */
function pointerSegment(segment: string): string {
    return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function validatorFor(pointer: string[]): ValidateFunction {
    const ref = `${OPENAPI_SCHEMA_ID}#/${pointer.map(pointerSegment).join('/')}`;
    const cached = validators.get(ref);
    if (cached) return cached;
    const validate = sharedAjv().compile({ $ref: ref });
    validators.set(ref, validate);
    return validate;
}

export interface OperationLocation {
    path: string;
    method: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    operation: Record<string, any>;
}

export function findOperation(operationId: string): OperationLocation {
    for (const [path, item] of Object.entries<Record<string, unknown>>(openapiDocument.paths ?? {})) {
        for (const method of HTTP_METHODS) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            const operation = item[method] as Record<string, any> | undefined;
            if (operation?.operationId === operationId) return { path, method, operation };
        }
    }
    throw new AssertionError({ message: `operation ${operationId} is not in the OpenAPI document` });
}

/** Pointer (as segments) to the body schema of `operationId`'s response for `status`, or `default`. */
function responseSchemaPointer(operationId: string, status: number): string[] {
    const { path, method, operation } = findOperation(operationId);
    const responses = operation.responses ?? {};
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
    if (key === undefined) {
        throw new AssertionError({ message: `${operationId} documents no ${status} response and no default` });
    }
    let pointer = ['paths', path, method, 'responses', key];
    let response = responses[key];
    if (typeof response.$ref === 'string') {
        const refPath = (response.$ref as string).replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
        pointer = refPath;
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        response = refPath.reduce((node: any, segment) => node?.[segment], openapiDocument);
    }
    const content = response?.content ?? {};
    const mediaType = 'application/json' in content ? 'application/json' : Object.keys(content)[0];
    if (mediaType === undefined || !content[mediaType].schema) {
        throw new AssertionError({ message: `${operationId} ${key} response has no body schema` });
    }
    return [...pointer, 'content', mediaType, 'schema'];
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
    return (errors ?? [])
        .map((e) => {
            const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : '';
            return `  ${e.instancePath || '(root)'}: ${e.message}${extra} [${e.schemaPath}]`;
        })
        .join('\n');
}

function check(validate: ValidateFunction, value: unknown, what: string): void {
    if (validate(value)) return;
    throw new AssertionError({
        message: `${what} does not match the OpenAPI document:\n${formatErrors(validate.errors)}`,
        actual: value,
        operator: 'openapi',
    });
}

/** Throws an AssertionError listing Ajv errors when `body` is not a valid `status` response of the operation. */
export function assertResponseMatches(operationId: string, status: number, body: unknown): void {
    check(validatorFor(responseSchemaPointer(operationId, status)), body, `${operationId} ${status} response`);
}

/** Throws an AssertionError listing Ajv errors when `value` does not match `components/schemas/<schemaName>`. */
export function assertSchemaMatches(schemaName: string, value: unknown): void {
    if (!(schemaName in (openapiDocument.components?.schemas ?? {}))) {
        throw new AssertionError({ message: `schema ${schemaName} is not in the OpenAPI document` });
    }
    check(validatorFor(['components', 'schemas', schemaName]), value, `${schemaName}`);
}
