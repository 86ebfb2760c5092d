/**
 * JSON parsing that keeps integers exact: an integer literal outside the safe range of a JS number
 * becomes a bigint instead of a rounded number. Everything else parses as JSON.parse would.
 */
export function parseExactJson(text: string): unknown {
    const parser = new ExactJsonParser(text);
    parser.skipSpace();
    const value = parser.value();
    parser.skipSpace();
    if (!parser.atEnd()) parser.fail('unexpected text after the JSON value');
    return value;
}

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
