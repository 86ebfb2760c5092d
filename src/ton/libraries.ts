import { Cell, CellType, Dictionary, beginCell, loadSimpleLibrary, storeSimpleLibrary, type DictionaryValue, type SimpleLibrary, type StateInit } from '@ton/core';
import { DictKeys } from './cells/dict-keys.ts';

/**
 * Library cells: an exotic cell (type 2) holding the hash of a library's root stands for that root
 * wherever it appears in code. Public libraries are published by masterchain accounts (their
 * StateInit `library` field); the TVM resolves library cells through the libraries it is given.
 */

/** Finds a library's root cell by its hash; null/undefined when the library is not known. */
export type LibraryLookup = (hash: Buffer) => Cell | null | undefined;

/**
 * A lookup over a libraries dictionary (`HashmapE 256 ^Cell`, keyed by the library root's hash)
 * as given to the emulator (`libs`), or over an already loaded Dictionary.
 */
export function libraryLookup(libs: Cell | Dictionary<Buffer, Cell> | null | undefined): LibraryLookup {
    if (!libs) return () => undefined;
    let dict: Dictionary<Buffer, Cell> | null = null;
    if (libs instanceof Cell) {
        try {
            dict = Dictionary.loadDirect(DictKeys.Buffer(32), Dictionary.Values.Cell(), libs);
        } catch {
            dict = null;
        }
    } else {
        dict = libs;
    }
    const loaded = dict;
    return (hash) => loaded?.get(hash);
}

/** The hash a library cell points at, or null when `cell` is not a library cell. */
export function libraryTargetHash(cell: Cell): Buffer | null {
    if (cell.type !== CellType.Library) return null;
    try {
        const slice = cell.beginParse(true);
        if (slice.remainingBits < 8 + 256 || slice.loadUint(8) !== 2) return null;
        return slice.loadBuffer(32);
    } catch {
        return null;
    }
}

/**
 * The code to run: `code` itself, or the library root it points at when `code` is a library
 * cell (null when that library is not available).
 */
export function resolveLibraryCode(code: Cell, libraries?: LibraryLookup): Cell | null {
    const target = libraryTargetHash(code);
    if (!target) return code.isExotic ? null : code;
    const resolved = libraries?.(target);
    if (!resolved || !resolved.hash().equals(target)) return null;
    return resolved.isExotic ? null : resolved;
}

/** A library cell pointing at `root`. */
export function libraryCell(root: Cell): Cell {
    return beginCell().storeUint(2, 8).storeBuffer(root.hash()).endCell({ exotic: true });
}

/** Hashes (hex) of the libraries the library cells anywhere in `cell`'s tree point at. */
export function libraryRefsIn(cell: Cell, found = new Set<string>(), seen = new Set<Cell>()): Set<string> {
    if (seen.has(cell)) return found;
    seen.add(cell);
    const target = libraryTargetHash(cell);
    if (target) found.add(target.toString('hex'));
    for (const ref of cell.refs) libraryRefsIn(ref, found, seen);
    return found;
}

const SIMPLE_LIBRARY: DictionaryValue<SimpleLibrary> = {
    serialize: (library, builder) => storeSimpleLibrary(library)(builder),
    parse: slice => loadSimpleLibrary(slice),
};

/** Public libraries of an account's StateInit `library` field (`HashmapE 256 SimpleLib`), by hash (hex). */
export function publicLibrariesOf(libraries: StateInit['libraries']): Map<string, Cell> {
    const found = new Map<string, Cell>();
    for (const [hash, library] of libraries ?? []) {
        if (library.public) found.set(hash.toString(16).padStart(64, '0'), library.root);
    }
    return found;
}

/** The `library` field as a BOC of its `Hashmap 256 SimpleLib` root; undefined when there are none. */
export function encodeLibraryField(libraries: StateInit['libraries']): Buffer | undefined {
    if (!libraries || libraries.size === 0) return undefined;
    return beginCell().storeDictDirect(libraries, DictKeys.BigUint(256), SIMPLE_LIBRARY).endCell().toBoc();
}

/** Public libraries in a `library` field encoded by {@link encodeLibraryField}, by hash (hex). */
export function publicLibrariesInField(boc: Buffer): Map<string, Cell> {
    const root = Cell.fromBoc(boc)[0];
    return publicLibrariesOf(Dictionary.loadDirect(DictKeys.BigUint(256), SIMPLE_LIBRARY, root));
}

/** The libraries dictionary the TVM takes (`Hashmap 256 ^Cell` root by library hash); null when empty. */
export function librariesDictionary(libraries: ReadonlyMap<string, Cell>): Cell | null {
    if (libraries.size === 0) return null;
    const dict = Dictionary.empty(DictKeys.Buffer(32), Dictionary.Values.Cell());
    for (const [hash, root] of libraries) dict.set(Buffer.from(hash, 'hex'), root);
    return beginCell().storeDictDirect(dict).endCell();
}
