import { serialize } from 'node:v8';

/**
 * How V8 holds `text`: one byte or two a character. The structured-clone serializer writes the
 * string as it is held, after its version header: '"' for one-byte, 'c' for two-byte (a '\0'
 * of padding may come first, to align the two-byte characters).
 */
export function stringRepresentation(text: string): 'one-byte' | 'two-byte' {
    const bytes = serialize(text);
    let at = 2;
    while (bytes[at] === 0) at++;
    if (bytes[at] === 0x22) return 'one-byte';
    if (bytes[at] === 0x63) return 'two-byte';
    throw new Error(`unexpected serialization tag ${bytes[at]}`);
}
