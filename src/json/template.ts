import { HOLE_MARK } from './json.ts';

/**
 * A text stored with holes, as the index keeps every one (a transaction's, a block's list, a jetton
 * operation's): the JSON text's bytes with one HOLE_MARK byte (NUL, never raw in JSON) where each
 * hole goes, and the holes' descriptors as a JSON array led by the version of the presenter that
 * made it. What a descriptor says is its maker's business; a text of another version is not used.
 */
export interface StoredTemplate {
    text: Buffer;
    holes: string;
}

/** `text` and its holes (in the order of their marks) in the stored form. */
export function storeTemplate(version: number, text: Buffer, holes: readonly unknown[]): StoredTemplate {
    return { text, holes: JSON.stringify([version, ...holes]) };
}

/** A stored template's version and hole descriptors. */
export function readTemplateHoles(holes: string): { version: number; holes: unknown[] } {
    const [version, ...rest] = JSON.parse(holes) as [number, ...unknown[]];
    return { version, holes: rest };
}

/** The version a stored template's holes lead with, read without parsing them; NaN when they do not. */
export function templateVersion(holes: string): number {
    const end = holes.indexOf(',');
    return Number(holes.slice(1, end < 0 ? -1 : end));
}

/** Where a text's hole marks are, when it holds exactly `count` of them; null otherwise. A string text is read as Latin-1 (one character a byte). */
export function holeMarks(text: Buffer | string, count: number): number[] | null {
    const next = typeof text === 'string' ? (from: number) => text.indexOf(HOLE_TEXT, from) : (from: number) => text.indexOf(HOLE_MARK, from);
    const marks: number[] = [];
    let from = 0;
    for (let i = 0; i < count; i++) {
        const at = next(from);
        if (at < 0) return null;
        marks.push(at);
        from = at + 1;
    }
    return next(from) >= 0 ? null : marks;
}

const HOLE_TEXT = String.fromCharCode(HOLE_MARK);
