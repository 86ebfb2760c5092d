/**
 * JSON text with exact integers: bigint values are written as plain JSON integers, however large,
 * so lts and nanogram amounts above 2^53 reach clients unrounded. `undefined` members are omitted.
 */
export function toJson(value: unknown): string {
    const writer = new JsonWriter();
    writer.write(value);
    return writer.chunks ? writer.bytes().toString('utf8') : writer.out;
}

/** The JSON text as UTF-8 bytes (parts of answers kept for reuse). */
export function toJsonBytes(value: unknown): Buffer {
    const writer = new JsonWriter();
    writer.write(value);
    return writer.bytes();
}

/**
 * A JSON text with holes: each `MemberHole` member of an object is left out of the text and marked
 * by one NUL byte (which a JSON text never holds raw: strings escape it), its descriptor listed in
 * order, for the member to be written in later (stored transaction texts, api/present/transaction-template.ts).
 */
export function toJsonTemplate(value: unknown): { text: Buffer; holes: unknown[] } {
    const writer = new JsonWriter();
    writer.holes = [];
    writer.write(value);
    return { text: writer.bytes(), holes: writer.holes };
}

/** An object member whose text is known only later: written by whoever fills the template, comma included. */
export class MemberHole {
    constructor(readonly descriptor: unknown) {}
}

/** The byte that marks a hole in a template's text. */
export const HOLE_MARK = 0;

/**
 * The JSON text of an answer as it goes on the wire: UTF-8 bytes when it holds byte texts
 * (`RawJson` of a Buffer: cached transactions and traces, copied in without being decoded) or is
 * large, else a string. A large string would be flattened and encoded twice on the way out (once to
 * count its bytes for Content-Length, once to write it), which cost a 160 KB page 1 ms.
 */
export function toJsonBody(value: unknown): string | Buffer {
    const writer = new JsonWriter();
    writer.write(value);
    return writer.chunks || writer.out.length > LARGE_TEXT ? writer.bytes() : writer.out;
}

const LARGE_TEXT = 16 * 1024;

/**
 * Built by appending to one string (emulation answers of ~30 KB took twice as long with arrays
 * joined); byte texts split it into chunks.
 */
class JsonWriter {
    out = '';
    chunks: Buffer[] | null = null;
    /** Set when writing a template: the descriptors of its holes. */
    holes: unknown[] | null = null;

    bytes(): Buffer {
        if (!this.chunks) return Buffer.from(this.out, 'utf8');
        if (this.out.length > 0) this.chunks.push(Buffer.from(this.out, 'utf8'));
        this.out = '';
        return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    }

    write(value: unknown): void {
        switch (typeof value) {
            case 'bigint':
                this.out += value.toString();
                return;
            case 'string':
                this.out += NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
                return;
            case 'number':
                this.out += Number.isFinite(value) ? String(value) : 'null';
                return;
            case 'boolean':
                this.out += value ? 'true' : 'false';
                return;
            case 'object':
                if (value === null) this.out += 'null';
                else if (Array.isArray(value)) this.writeArray(value);
                else if (Buffer.isBuffer(value)) this.out += `"${value.toString('hex')}"`;
                else if (value instanceof RawJson) this.writeRaw(value.text);
                else this.writeObject(value as Record<string, unknown>);
                return;
            default:
                this.out += 'null';
        }
    }

    private writeArray(items: unknown[]): void {
        this.out += '[';
        for (let i = 0; i < items.length; i++) {
            if (i > 0) this.out += ',';
            const item = items[i];
            if (item === undefined) this.out += 'null';
            else this.write(item);
        }
        this.out += ']';
    }

    private writeObject(record: Record<string, unknown>): void {
        this.out += '{';
        let first = true;
        // for…in walks the object's enumeration cache (Object.keys made an array per object), but it
        // also walks inherited members: only for plain objects, which is what answers are made of.
        const prototype = Object.getPrototypeOf(record);
        if (prototype === Object.prototype || prototype === null) {
            for (const key in record) first = this.writeMember(key, record[key], first);
        } else {
            for (const key of Object.keys(record)) first = this.writeMember(key, record[key], first);
        }
        this.out += '}';
    }

    /** Writes one member unless it is left out; returns whether the object still has no member written. */
    private writeMember(key: string, member: unknown, first: boolean): boolean {
        if (member === undefined || typeof member === 'function') return first;
        if (typeof member === 'object' && member instanceof MemberHole) {
            if (!this.holes || first) throw new Error(`member '${key}' is a hole, which only a template's members after the first may be`);
            this.out += '\u0000';
            this.holes.push(member.descriptor);
            return first;
        }
        this.out += first ? quotedKey(key) : `,${quotedKey(key)}`;
        this.out += ':';
        this.write(member);
        return false;
    }

    private writeRaw(text: string | Buffer): void {
        if (typeof text === 'string') {
            this.out += text;
            return;
        }
        this.chunks ??= [];
        if (this.out.length > 0) this.chunks.push(Buffer.from(this.out, 'utf8'));
        this.chunks.push(text);
        this.out = '';
    }
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters and (lone) surrogates; most strings have none. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

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
 * JSON text to be shown as it is (a jetton operation's payload the indexer stored, a transaction
 * presented before, as a string or its UTF-8 bytes): written into the answer neither parsed nor re-quoted.
 */
export class RawJson {
    constructor(readonly text: string | Buffer) {}
}
