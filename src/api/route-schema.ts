import { openapiDocument } from './openapi/document.ts';

type JsonSchema = Record<string, unknown>;

interface Operation {
    path: string;
    method: string;
    parameters?: Array<{ name: string; in: string; required?: boolean; schema: JsonSchema }>;
    requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> } | { $ref: string };
}

const DOCUMENT_ID = 'openapi.json';

function findOperation(operationId: string): Operation {
    const paths = openapiDocument.paths as Record<string, Record<string, Operation & { operationId?: string }>>;
    for (const [path, item] of Object.entries(paths)) {
        for (const [method, op] of Object.entries(item)) {
            if (op && typeof op === 'object' && op.operationId === operationId) return { ...op, path, method };
        }
    }
    throw new Error(`operation ${operationId} is not in the OpenAPI document`);
}

function resolve<T>(value: T | { $ref: string }): T {
    if (value && typeof value === 'object' && '$ref' in value) {
        const parts = value.$ref.replace(/^#\//, '').split('/');
        let node: any = openapiDocument;
        for (const part of parts) node = node[part];
        return node as T;
    }
    return value as T;
}

/** Local refs point into the document, which the validator knows under its id. */
function anchorRefs(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(anchorRefs);
    if (schema && typeof schema === 'object') {
        const out: JsonSchema = {};
        for (const [key, value] of Object.entries(schema)) {
            out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${DOCUMENT_ID}${value}` : anchorRefs(value);
        }
        return out;
    }
    return schema;
}

/**
 * 64-bit integers in the query or path stay strings during validation (a coerced JS number would
 * round them above 2^53); handlers turn them into bigint.
 */
function exactInteger(schema: JsonSchema): JsonSchema {
    if (schema.type === 'integer' && schema.format === 'int64') {
        const { minimum: _min, maximum: _max, format: _f, type: _t, ...rest } = schema;
        return { ...rest, type: 'string', pattern: '^-?[0-9]{1,20}$' };
    }
    return schema;
}

/**
 * Booleans in the query are written `true`/`false` or `1`/`0` (the document's `shallow=1`); Ajv's
 * coercion knows only the words, so the `queryBoolean` keyword reads both and stores a boolean.
 */
function queryBoolean(schema: JsonSchema): JsonSchema {
    if (schema.type !== 'boolean') return schema;
    const { type: _t, ...rest } = schema;
    return { ...rest, queryBoolean: true };
}

/** Request bodies are small and not recursive: inline their refs so their integers can be adapted. */
function inlineRefs(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(inlineRefs);
    if (schema && typeof schema === 'object') {
        if ('$ref' in schema && typeof schema.$ref === 'string') return inlineRefs(resolve(schema as { $ref: string }));
        return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineRefs(v)]));
    }
    return schema;
}

/**
 * Bodies are parsed with exact integers (bigint beyond 2^53), which the plain `integer` type
 * rejects; 64-bit integers in bodies are checked by the `exactInteger` keyword instead.
 */
function exactBodyIntegers(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(exactBodyIntegers);
    if (schema && typeof schema === 'object') {
        const node = schema as JsonSchema;
        if (node.type === 'integer' && node.format === 'int64') {
            const { type: _t, format: _f, minimum, maximum, ...rest } = node;
            return { ...rest, exactInteger: { minimum, maximum } };
        }
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, exactBodyIntegers(v)]));
    }
    return schema;
}

export interface FastifyRouteSchema {
    params?: JsonSchema;
    querystring?: JsonSchema;
    body?: JsonSchema;
}

/** Request validation schemas of one operation, taken from the OpenAPI document. */
export function routeSchemaFor(operationId: string): { method: string; url: string; schema: FastifyRouteSchema } {
    const op = findOperation(operationId);
    const schema: FastifyRouteSchema = {};
    for (const location of ['path', 'query'] as const) {
        const params = (op.parameters ?? []).map(p => resolve(p)).filter(p => p.in === location);
        if (params.length === 0) continue;
        const properties: Record<string, unknown> = {};
        for (const p of params) {
            const adapted = exactInteger(resolve(p.schema));
            properties[p.name] = anchorRefs(location === 'query' ? queryBoolean(adapted) : adapted);
        }
        const required = params.filter(p => p.required || location === 'path').map(p => p.name);
        schema[location === 'path' ? 'params' : 'querystring'] = { type: 'object', properties, required };
    }
    if (op.requestBody) {
        const body = resolve(op.requestBody);
        const json = body.content?.['application/json']?.schema;
        if (json) schema.body = exactBodyIntegers(inlineRefs(json)) as JsonSchema;
    }
    return { method: op.method.toUpperCase(), url: op.path.replace(/\{([^}]+)\}/g, ':$1'), schema };
}

/** Every path of the document with the methods it allows, as regular expressions (for 405 answers). */
export function documentedRoutes(): Array<{ pattern: RegExp; methods: string[] }> {
    const paths = openapiDocument.paths as Record<string, Record<string, unknown>>;
    return Object.entries(paths).map(([path, item]) => ({
        pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        methods: Object.keys(item).filter(m => ['get', 'post', 'put', 'delete', 'patch'].includes(m)).map(m => m.toUpperCase()),
    }));
}

export { DOCUMENT_ID };
