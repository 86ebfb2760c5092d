/**
 * JSON text with exact integers: bigint values are written as plain JSON integers, however large,
 * so lts and nanogram amounts above 2^53 reach clients unrounded. `undefined` members are omitted.
 */
export function toJson(value: unknown): string {
    const writer = new JsonWriter();
    writer.write(value);
    return writer.chunks ? writer.bytes().toString('utf8') : writer.out;
}

/** The JSON text as UTF-8 bytes (parts of answers kept for reuse), the same bytes as `toJson`'s text encoded. */
export function toJsonBytes(value: unknown): Buffer {
    const writer = ByteJsonWriter.start();
    writer.write(value);
    return writer.finish();
}

/**
 * A JSON text with holes: each `MemberHole` member of an object is left out of the text and marked
 * by one NUL byte (which a JSON text never holds raw: strings escape it), its descriptor listed in
 * order, for the member to be written in later (stored transaction texts, present/stored/transaction-template.ts).
 */
export function toJsonTemplate(value: unknown): { text: Buffer; holes: unknown[] } {
    const writer = ByteJsonWriter.start();
    const holes: unknown[] = (writer.holes = []);
    writer.write(value);
    return { text: writer.finish(), holes };
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
 * The writer of answers: built by appending to one string (emulation answers of ~30 KB took twice as
 * long with arrays joined); byte texts (kept texts of up to megabytes) are chained in as chunks, not
 * copied. Texts made to be stored, and templates, are written by `ByteJsonWriter` below.
 */
class JsonWriter {
    out = '';
    chunks: Buffer[] | null = null;

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
        if (isPlainRecord(record)) for (const key in record) first = this.writeMember(key, record[key], first);
        else for (const key of Object.keys(record)) first = this.writeMember(key, record[key], first);
        this.out += '}';
    }

    /** Writes one member unless it is left out; returns whether the object still has no member written. */
    private writeMember(key: string, member: unknown, first: boolean): boolean {
        if (member === undefined || typeof member === 'function') return first;
        if (typeof member === 'object' && member instanceof MemberHole) throw new Error(`member '${key}' is a hole, which only a template (toJsonTemplate) may hold`);
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

/**
 * `JsonWriter`'s text written straight as UTF-8 into one buffer, for texts wanted as bytes: a block's
 * transactions' stored texts were built as strings of thousands of pieces, flattened and encoded
 * again, about as many bytes of garbage as text while the block's cells were alive (written straight
 * as bytes, the writer's strings for 100 loaded devnet blocks went from 207 to 15 MB). The buffer is
 * kept between texts; each text is copied out of it.
 */
class ByteJsonWriter {
    /** Set when writing a template: the descriptors of its holes. */
    holes: unknown[] | null = null;
    private at = 0;

    private constructor(private buffer: Buffer) {}

    /** A writer on the kept buffer, or on a new one while the kept one is in use (a text written while writing another). */
    static start(): ByteJsonWriter {
        const kept = keptBuffer;
        keptBuffer = null;
        return new ByteJsonWriter(kept ?? Buffer.allocUnsafe(KEPT_BUFFER_BYTES));
    }

    /** The text written, in a buffer of its own; the writer's buffer is kept for the next one unless it grew large. */
    finish(): Buffer {
        const text = Buffer.allocUnsafe(this.at);
        this.buffer.copy(text, 0, 0, this.at);
        if (this.buffer.length <= KEPT_BUFFER_LIMIT) keptBuffer = this.buffer;
        return text;
    }

    write(value: unknown): void {
        switch (typeof value) {
            case 'bigint':
                this.latin1(value.toString());
                return;
            case 'string':
                if (NEEDS_ESCAPE.test(value)) {
                    this.utf8(JSON.stringify(value));
                } else {
                    this.byte(QUOTE);
                    this.utf8(value);
                    this.byte(QUOTE);
                }
                return;
            case 'number':
                this.latin1(Number.isFinite(value) ? String(value) : 'null');
                return;
            case 'boolean':
                this.latin1(value ? 'true' : 'false');
                return;
            case 'object':
                if (value === null) this.latin1('null');
                else if (Array.isArray(value)) this.writeArray(value);
                else if (Buffer.isBuffer(value)) this.hex(value);
                else if (value instanceof RawJson) this.raw(value.text);
                else this.writeObject(value as Record<string, unknown>);
                return;
            default:
                this.latin1('null');
        }
    }

    private writeArray(items: unknown[]): void {
        this.byte(OPEN_ARRAY);
        for (let i = 0; i < items.length; i++) {
            if (i > 0) this.byte(COMMA);
            const item = items[i];
            if (item === undefined) this.latin1('null');
            else this.write(item);
        }
        this.byte(CLOSE_ARRAY);
    }

    private writeObject(record: Record<string, unknown>): void {
        this.byte(OPEN_OBJECT);
        let first = true;
        if (isPlainRecord(record)) for (const key in record) first = this.writeMember(key, record[key], first);
        else for (const key of Object.keys(record)) first = this.writeMember(key, record[key], first);
        this.byte(CLOSE_OBJECT);
    }

    private writeMember(key: string, member: unknown, first: boolean): boolean {
        if (member === undefined || typeof member === 'function') return first;
        if (typeof member === 'object' && member instanceof MemberHole) {
            if (!this.holes || first) throw new Error(`member '${key}' is a hole, which only a template's members after the first may be`);
            this.byte(HOLE_MARK);
            this.holes.push(member.descriptor);
            return first;
        }
        if (!first) this.byte(COMMA);
        this.copy(memberNameBytes(key));
        this.write(member);
        return false;
    }

    private raw(text: string | Buffer): void {
        if (typeof text === 'string') this.utf8(text);
        else this.copy(text);
    }

    private hex(bytes: Buffer): void {
        this.room(bytes.length * 2 + 2);
        this.buffer[this.at++] = QUOTE;
        this.at += this.buffer.write(bytes.toString('hex'), this.at, 'latin1');
        this.buffer[this.at++] = QUOTE;
    }

    private byte(value: number): void {
        if (this.at === this.buffer.length) this.room(1);
        this.buffer[this.at++] = value;
    }

    /** A string of code units below 256 (numbers, literals): one byte each. */
    private latin1(text: string): void {
        this.room(text.length);
        this.at += this.buffer.write(text, this.at, 'latin1');
    }

    private utf8(text: string): void {
        // At most three bytes a UTF-16 code unit (a surrogate pair: four bytes for two units).
        this.room(text.length * 3);
        this.at += this.buffer.write(text, this.at, 'utf8');
    }

    private copy(bytes: Buffer): void {
        this.room(bytes.length);
        if (bytes.length > SHORT_COPY) {
            this.at += bytes.copy(this.buffer, this.at);
            return;
        }
        const buffer = this.buffer;
        for (let i = 0; i < bytes.length; i++) buffer[this.at++] = bytes[i];
    }

    private room(bytes: number): void {
        if (this.at + bytes <= this.buffer.length) return;
        const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
        this.buffer.copy(grown, 0, 0, this.at);
        this.buffer = grown;
    }
}

/** The writers' buffer between texts (null while one is writing), and the size past which it is let go. */
let keptBuffer: Buffer | null = null;
const KEPT_BUFFER_BYTES = 64 * 1024;
const KEPT_BUFFER_LIMIT = 1024 * 1024;

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
/** Byte texts up to this long are copied by a loop here: a native call costs more. */
const SHORT_COPY = 64;

/** `"name":` as UTF-8, kept as `quotedKey` keeps the quoted names. */
const memberNames = new Map<string, Buffer>();

function memberNameBytes(key: string): Buffer {
    let bytes = memberNames.get(key);
    if (bytes === undefined) {
        bytes = Buffer.from(`${quotedKey(key)}:`, 'utf8');
        if (memberNames.size < QUOTED_KEYS_KEPT) memberNames.set(key, bytes);
    }
    return bytes;
}

/**
 * Whether for…in over `record` walks its own members only. It walks the object's enumeration cache
 * (Object.keys made an array per object), but inherited members too: used for plain objects only,
 * which is what answers are made of.
 */
function isPlainRecord(record: object): boolean {
    const prototype = Object.getPrototypeOf(record);
    return prototype === Object.prototype || prototype === null;
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters and (lone) surrogates; most strings have none. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Member names as JSON strings, kept: responses repeat the same few hundred names, and quoting each again cost a quarter of the time. */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_KEPT = 10_000;

function quotedKey(key: string): string {
    let quoted = quotedKeys.get(key);
    if (quoted === undefined) {
        quoted = oneByteString(JSON.stringify(key));
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

/**
 * `text` (JSON) with every character outside ASCII written as a `\u` escape: the same JSON value,
 * in a text whose UTF-8 is its Latin-1, which Node writes into bytes as a copy. UTF-8 encoding
 * walks each character, which for a 77 KB history page under load cost more than putting the page
 * together (12–17 % of the server's CPU in a profile of history pages served at ten connections).
 */
export function asciiJson(text: string): string {
    return NON_ASCII.test(text) ? oneByteString(text.replace(NON_ASCII_ALL, escapeCodeUnit)) : text;
}

/**
 * `text` held as a one-byte string where each of its code units fits a byte. V8 keeps a string
 * two-byte when it was cut or replaced out of a two-byte one, even with nothing beyond ASCII left,
 * and member names the OpenAPI document's parse made first (`"verification"`, `"score"`) were
 * such strings. One such piece makes every text it is joined or concatenated into two-byte: twice
 * the bytes to flatten, and each character narrowed again when the answer is written as bytes
 * (where that happened, one-byte pieces gave 19–39 % more history pages a second, and a third of the
 * system time a page).
 */
export function oneByteString(text: string): string {
    return LATIN1_ONLY.test(text) ? Buffer.from(text, 'latin1').toString('latin1') : text;
}

const LATIN1_ONLY = /^[\x00-\xff]*$/;

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

function escapeCodeUnit(unit: string): string {
    return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
