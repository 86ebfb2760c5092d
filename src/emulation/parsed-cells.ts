import type { Cell } from '@ton/core';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { BoundedMap } from '../lru.ts';

/**
 * Root cells of BOCs read from the index (an account's code, its data), kept by a name (address and
 * field) together with the bytes they were read from: a cell is reused only while the index still
 * holds exactly those bytes, so it can never be stale, and reading it again (hashing every cell)
 * is left for the BOCs that did change.
 */
export class ParsedCells {
    private readonly cells: BoundedMap<string, { bytes: Buffer; cell: Cell }>;

    constructor(limit: number) {
        this.cells = new BoundedMap(limit);
    }

    read(name: string, bytes: Buffer): Cell {
        const known = this.cells.get(name);
        if (known && known.bytes.equals(bytes)) return known.cell;
        const cell = readBoc(bytes)[0];
        this.cells.set(name, { bytes, cell });
        return cell;
    }
}
