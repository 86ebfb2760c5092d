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

export function requestValidator(coerceTypes: boolean): Ajv2020 {
    return addExactIntegerKeyword(createOpenapiAjv({ coerceTypes }));
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
