import { type BitString, type Cell, CellType, type Slice } from '@ton/core';
import { levelMask, passForCells } from './core-cells.ts';

const LEVEL_ZERO = levelMask(0);

/**
 * An ordinary level-0 cell known by its hash and depth only until its bits or refs are read; then
 * `produce` makes the real cell (checked against the hash) once. Parents built on it hash as they
 * would on the real cell, so a large tree can keep subtrees it does not touch without holding their
 * cells. @ton/core's cells carry their methods as own properties; this one has them on its
 * prototype (which passes for Cell's: core-cells.ts), so an unloaded cell costs a few fields.
 */
export abstract class UnloadedCell {
    private real: Cell | null = null;

    constructor(private readonly rootHash: Buffer, private readonly rootDepth: number) {}

    /** The real cell; asked once, on first read. */
    protected abstract produce(): Cell;

    get loaded(): boolean {
        return this.real !== null;
    }

    get type(): CellType {
        return CellType.Ordinary;
    }

    get mask() {
        return LEVEL_ZERO;
    }

    get bits(): BitString {
        return this.materialize().bits;
    }

    get refs(): Cell[] {
        return this.materialize().refs;
    }

    get _hashes(): Buffer[] {
        return [this.rootHash];
    }

    get _depths(): number[] {
        return [this.rootDepth];
    }

    hash(): Buffer {
        return this.rootHash;
    }

    depth(): number {
        return this.rootDepth;
    }

    level(): number {
        return 0;
    }

    beginParse(allowExotic = false): Slice {
        return this.materialize().beginParse(allowExotic);
    }

    equals(other: Cell): boolean {
        return this.rootHash.equals(other.hash());
    }

    materialize(): Cell {
        if (this.real) return this.real;
        const real = this.produce();
        if (real.level() !== 0 || !real.hash(0).equals(this.rootHash)) {
            throw new Error(`a cell loaded for ${this.rootHash.toString('hex')} hashes as ${real.hash(0).toString('hex')}: the store it came from does not hold what it stood for`);
        }
        this.real = real;
        return real;
    }

    /** This unloaded cell as the @ton/core Cell it stands for. */
    asCell(): Cell {
        return this as unknown as Cell;
    }
}
passForCells(UnloadedCell);

/** Whether the cell is a lazy one not read yet (its subtree is not held). */
export function isUnloaded(cell: Cell): boolean {
    const lazy: unknown = cell;
    return lazy instanceof UnloadedCell && !lazy.loaded;
}
