/**
 * JSON parsing that keeps integers exact: an integer literal outside the safe range of a JS number
 * becomes a bigint instead of a rounded number. Everything else parses as JSON.parse would.
 */
export function parseExactJson(text: string): unknown {
    // JSON.parse gives the same value, ten times faster (a body of 100 keys: ~5 against ~45 µs), for
    // a text with no integer of 16 digits or more (the shortest past 2^53) and no member that may be
    // `__proto__` (dropped below, where JSON.parse makes it an own member, which Object.assign turns
    // into a prototype): none named so, none with a `\u` escape. A text it refuses is parsed below for
    // our error message.
    if (!mayHoldLongInteger(text) && !text.includes('__proto__') && !text.includes('\\u')) {
        try {
            return JSON.parse(text);
        } catch {
            // reported by the parser below
        }
    }
    const parser = new ExactJsonParser(text);
    parser.skipSpace();
    const value = parser.value();
    parser.skipSpace();
    if (!parser.atEnd()) parser.fail('unexpected text after the JSON value');
    return value;
}

/**
 * Whether 16 digits follow each other outside strings. Strings are jumped over (a regex or a loop
 * over every character took longer than JSON.parse itself on bodies of hex keys); an unterminated
 * one answers yes, for the exact parser to report.
 */
function mayHoldLongInteger(text: string): boolean {
    let digits = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === QUOTE) {
            i = stringEnd(text, i);
            if (i < 0) return true;
            digits = 0;
        } else if (c >= DIGIT_0 && c <= DIGIT_9) {
            if (++digits === 16) return true;
        } else digits = 0;
    }
    return false;
}

/** The index of the quote that ends the string opening at `open`, or -1. */
function stringEnd(text: string, open: number): number {
    for (let at = open + 1; ; at++) {
        at = text.indexOf('"', at);
        if (at < 0) return -1;
        let backslashes = 0;
        while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) return at;
    }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

export class JsonSyntaxError extends Error {
    override readonly name = 'JsonSyntaxError';
}

class ExactJsonParser {
    private pos = 0;

    constructor(private readonly text: string) {}

    atEnd(): boolean {
        return this.pos >= this.text.length;
    }

    fail(message: string): never {
        throw new JsonSyntaxError(`${message} at position ${this.pos}`);
    }

    skipSpace(): void {
        while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
    }

    value(): unknown {
        const c = this.text[this.pos];
        if (c === '{') return this.object();
        if (c === '[') return this.array();
        if (c === '"') return this.string();
        if (c === '-' || (c >= '0' && c <= '9')) return this.number();
        for (const [word, result] of [['true', true], ['false', false], ['null', null]] as const) {
            if (this.text.startsWith(word, this.pos)) {
                this.pos += word.length;
                return result;
            }
        }
        return this.fail('unexpected character');
    }

    private object(): Record<string, unknown> {
        const result: Record<string, unknown> = Object.create(null);
        this.pos++;
        this.skipSpace();
        if (this.text[this.pos] === '}') {
            this.pos++;
            return { ...result };
        }
        for (;;) {
            this.skipSpace();
            if (this.text[this.pos] !== '"') this.fail('expected a member name');
            const key = this.string();
            this.skipSpace();
            if (this.text[this.pos++] !== ':') this.fail("expected ':'");
            this.skipSpace();
            const member = this.value();
            if (key !== '__proto__') result[key] = member;
            this.skipSpace();
            const next = this.text[this.pos++];
            if (next === '}') return { ...result };
            if (next !== ',') this.fail("expected ',' or '}'");
        }
    }

    private array(): unknown[] {
        const result: unknown[] = [];
        this.pos++;
        this.skipSpace();
        if (this.text[this.pos] === ']') {
            this.pos++;
            return result;
        }
        for (;;) {
            this.skipSpace();
            result.push(this.value());
            this.skipSpace();
            const next = this.text[this.pos++];
            if (next === ']') return result;
            if (next !== ',') this.fail("expected ',' or ']'");
        }
    }

    private string(): string {
        const start = this.pos;
        this.pos++;
        while (this.pos < this.text.length) {
            const c = this.text[this.pos];
            if (c === '\\') this.pos += 2;
            else if (c === '"') {
                this.pos++;
                return JSON.parse(this.text.slice(start, this.pos)) as string;
            } else this.pos++;
        }
        return this.fail('unterminated string');
    }

    private number(): number | bigint {
        const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
        if (!match) return this.fail('invalid number');
        this.pos += match[0].length;
        if (match[2] === undefined && match[3] === undefined) {
            const exact = BigInt(match[0]);
            if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) return exact;
        }
        return Number(match[0]);
    }
}
