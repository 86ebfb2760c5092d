/**
 * JSON text with exact integers: bigint values are written as plain JSON integers, however large,
 * so lts and nanogram amounts above 2^53 reach clients unrounded. `undefined` members are omitted.
 */
export function toJson(value: unknown): string {
    switch (typeof value) {
        case 'bigint':
            return value.toString();
        case 'string':
            return JSON.stringify(value);
        case 'number':
            return Number.isFinite(value) ? String(value) : 'null';
        case 'boolean':
            return value ? 'true' : 'false';
        case 'object': {
            if (value === null) return 'null';
            if (Array.isArray(value)) return `[${value.map(item => (item === undefined ? 'null' : toJson(item))).join(',')}]`;
            if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('hex'));
            const parts: string[] = [];
            for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
                if (member === undefined || typeof member === 'function') continue;
                parts.push(`${JSON.stringify(key)}:${toJson(member)}`);
            }
            return `{${parts.join(',')}}`;
        }
        default:
            return 'null';
    }
}
