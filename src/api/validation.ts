import type { ErrorObject } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createOpenapiAjv } from './openapi/document.ts';
import { badRequest } from './errors.ts';

/** `exactInteger`: an integer given as a JS number or, beyond 2^53, a bigint; optional bounds. */
function addExactIntegerKeyword(ajv: Ajv2020): Ajv2020 {
    ajv.addKeyword({
        keyword: 'exactInteger',
        schemaType: 'object',
        errors: true,
        validate: function check(bounds: { minimum?: number; maximum?: number }, data: unknown): boolean {
            const self = check as unknown as { errors: Array<{ keyword: string; message: string; params: object }> };
            let value: bigint;
            if (typeof data === 'bigint') value = data;
            else if (typeof data === 'number' && Number.isInteger(data)) value = BigInt(data);
            else {
                self.errors = [{ keyword: 'exactInteger', message: 'must be an integer', params: {} }];
                return false;
            }
            if (bounds.minimum !== undefined && value < BigInt(bounds.minimum)) {
                self.errors = [{ keyword: 'exactInteger', message: `must be >= ${bounds.minimum}`, params: {} }];
                return false;
            }
            if (bounds.maximum !== undefined && value > BigInt(bounds.maximum)) {
                self.errors = [{ keyword: 'exactInteger', message: `must be <= ${bounds.maximum}`, params: {} }];
                return false;
            }
            if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) {
                self.errors = [{ keyword: 'exactInteger', message: 'must fit in a signed 64-bit integer', params: {} }];
                return false;
            }
            return true;
        },
    });
    return ajv;
}

/** `verbose` keeps the failing value and its schema in each error, for `validationMessage`. */
/** `queryBoolean`: a query value `true`/`false`/`1`/`0`, replaced by the boolean it means. */
function addQueryBooleanKeyword(ajv: Ajv2020): Ajv2020 {
    const MEANING: Record<string, boolean> = { true: true, false: false, 1: true, 0: false };
    ajv.addKeyword({
        keyword: 'queryBoolean',
        schemaType: 'boolean',
        modifying: true,
        errors: true,
        validate: function check(_schema: boolean, data: unknown, _parent?: unknown, place?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number }): boolean {
            const self = check as unknown as { errors: Array<{ keyword: string; message: string; params: object }> };
            const value = typeof data === 'boolean' ? data : typeof data === 'string' ? MEANING[data] : undefined;
            if (value === undefined) {
                self.errors = [{ keyword: 'queryBoolean', message: 'must be true or false (or 1 or 0)', params: {} }];
                return false;
            }
            if (place?.parentData) place.parentData[place.parentDataProperty] = value;
            return true;
        },
    });
    return ajv;
}

export function requestValidator(coerceTypes: boolean): Ajv2020 {
    return addQueryBooleanKeyword(addExactIntegerKeyword(createOpenapiAjv({ coerceTypes, verbose: true })));
}

const LOCATIONS: Record<string, string> = { querystring: 'query parameter', params: 'path parameter', body: 'request body', headers: 'header' };
const QUOTED_CHARS = 80;

/** The document's words for the form a value must take (`x-expected` beside its pattern). */
function expectedForm(error: ErrorObject): string | undefined {
    if (error.keyword === 'required') return undefined;
    const hint = (error.parentSchema as Record<string, unknown> | undefined)?.['x-expected'];
    return typeof hint === 'string' ? hint : undefined;
}

function quoted(value: unknown): string {
    if (typeof value !== 'string') return typeof value === 'bigint' ? value.toString() : JSON.stringify(value) ?? String(value);
    return value.length > QUOTED_CHARS ? `'${value.slice(0, QUOTED_CHARS)}…' (${value.length} characters)` : `'${value}'`;
}

/**
 * The 400 message of a request that fails its schema: where (`path parameter 'trace_id'`), and
 * what is wrong, in words. A value outside an identifier's pattern is quoted with the form the
 * document expects instead of the regular expression.
 */
export function validationMessage(errors: ErrorObject[], dataVar: string): string {
    const first = errors[0];
    const location = LOCATIONS[dataVar] ?? dataVar;
    const field = first.keyword === 'required'
        ? String((first.params as { missingProperty?: string }).missingProperty)
        : first.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const what = field ? `${location} '${field}'` : location;
    const hinted = errors.find(e => e.instancePath === first.instancePath && expectedForm(e) !== undefined);
    if (hinted) return `${what} must be ${expectedForm(hinted)}; got ${quoted(hinted.data)}`;
    let message = first.message ?? 'is invalid';
    if (first.keyword === 'pattern') {
        // 64-bit integers in queries and paths are checked as digit strings (route-schema.ts).
        message = /\^-\?\[0-9\]/.test(String((first.params as { pattern?: string }).pattern)) ? 'must be an integer' : `has the wrong form; got ${quoted(first.data)}`;
    }
    if (first.keyword === 'required') message = 'is required';
    return `${what} ${message}`;
}

/**
 * An integer from a validated request: query strings and body values alike, exactly. Query values
 * are only checked for digits, so the signed 64-bit range is enforced here.
 */
export function exactInt(value: unknown, what = 'value'): bigint {
    const exact = typeof value === 'bigint' ? value : typeof value === 'number' ? BigInt(value) : BigInt(String(value));
    if (exact > 2n ** 63n - 1n || exact < -(2n ** 63n)) throw badRequest(`${what} ${exact} must fit in a signed 64-bit integer`);
    return exact;
}
