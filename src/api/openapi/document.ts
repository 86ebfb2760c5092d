import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import ajvFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

/**
 * The OpenAPI 3.1 document is the source of truth of the API: routes take their schemas from it
 * and tests validate responses against it, so it is loaded once and shared.
 */

// ajv-formats is CommonJS; under NodeNext its function sits on `.default`.
const addFormats = ajvFormatsModule.default;

export const openapiYaml: string = readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8');

// The compiled service reads the document as JSON, converted at build time (parsing the YAML costs a
// quarter of a second at every start); from the sources it is parsed here.
const prebuilt = new URL('./openapi.json', import.meta.url);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const openapiDocument: Record<string, any> = existsSync(prebuilt) ? JSON.parse(readFileSync(prebuilt, 'utf8')) : parse(openapiYaml);

/** Id under which the whole document is registered: refs look like `openapi.json#/components/schemas/X`. */
export const OPENAPI_SCHEMA_ID = 'openapi.json';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;

/**
 * OpenAPI's numeric formats. int64 values beyond 2^53 lose precision once parsed by JSON.parse
 * (2^63 − 1 becomes 2^63), so int64 asks for an integer within ±2^63.
 */
const numericFormats: Record<string, (n: number) => boolean> = {
    int64: (n) => Number.isInteger(n) && n >= -(2 ** 63) && n <= 2 ** 63,
    int32: (n) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
    uint32: (n) => Number.isInteger(n) && n >= 0 && n <= UINT32_MAX,
    double: (n) => Number.isFinite(n),
    float: (n) => Number.isFinite(n),
};

/**
 * A draft 2020-12 Ajv that knows the whole document. Not strict, because OpenAPI keywords
 * (`example`, `deprecated` on parameters, `discriminator` …) are not JSON Schema vocabulary.
 * `options` are added on top (e.g. `coerceTypes` for request validation).
 */
export function createOpenapiAjv(options: Options = {}): Ajv2020 {
    const ajv = new Ajv2020({ strict: false, allErrors: true, ...options });
    addFormats(ajv);
    for (const [name, validate] of Object.entries(numericFormats)) {
        ajv.addFormat(name, { type: 'number', validate });
    }
    ajv.addSchema(openapiDocument, OPENAPI_SCHEMA_ID);
    return ajv;
}
