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
            // Built by appending to one string: emulation answers of ~30 KB took twice as long with arrays joined.
            if (Array.isArray(value)) {
                let out = '[';
                for (let i = 0; i < value.length; i++) {
                    const item = value[i];
                    out += i === 0 ? '' : ',';
                    out += item === undefined ? 'null' : toJson(item);
                }
                return `${out}]`;
            }
            if (Buffer.isBuffer(value)) return `"${value.toString('hex')}"`;
            if (value instanceof RawJson) return value.text;
            const record = value as Record<string, unknown>;
            let out = '{';
            let first = true;
            for (const key of Object.keys(record)) {
                const member = record[key];
                if (member === undefined || typeof member === 'function') continue;
                out += first ? quotedKey(key) : `,${quotedKey(key)}`;
                out += ':';
                out += toJson(member);
                first = false;
            }
            return `${out}}`;
        }
        default:
            return 'null';
    }
}

/** Member names as JSON strings, kept: responses repeat the same few hundred names, and quoting each again cost a quarter of the time. */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_KEPT = 10_000;

function quotedKey(key: string): string {
    let quoted = quotedKeys.get(key);
    if (quoted === undefined) {
        quoted = JSON.stringify(key);
        if (quotedKeys.size < QUOTED_KEYS_KEPT) quotedKeys.set(key, quoted);
    }
    return quoted;
}

/**
 * JSON text the index stored as it is to be shown (written by the indexer, e.g. a jetton
 * operation's decoded payload): written into the answer as it is, neither parsed nor re-quoted.
 */
export class RawJson {
    constructor(readonly text: string) {}
}
