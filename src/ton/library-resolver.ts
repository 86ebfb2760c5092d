import type { Cell } from '@ton/core';
import { readBoc } from './boc/boc-reader.ts';
import { libraryRefsIn } from './libraries.ts';

/** Finds library roots (BOCs) by hash (hex); hashes it does not know are left out. */
export type LibraryFetch = (hashes: string[]) => Promise<Map<string, Buffer>>;

/**
 * Resolves the library cells in contract code to the libraries they stand for, following
 * libraries that use libraries themselves. A library's content never changes (its hash is its
 * name), so roots are kept once found; a hash not found is asked again next time.
 */
export class LibraryResolver {
    private readonly roots = new Map<string, Cell>();
    /** Library hashes each code uses, by the code's hash: a contract's code tree is walked once. */
    private readonly refsOfCode = new Map<string, string[]>();

    constructor(private readonly fetch: LibraryFetch, private readonly maxCached = 2_000) {}

    /** Every library the cells need, by hash; those no source knows are missing from the result. */
    async librariesFor(cells: Iterable<Cell>): Promise<Map<string, Cell>> {
        const needed = new Set<string>();
        for (const cell of cells) for (const hash of this.refsOf(cell)) needed.add(hash);
        return this.resolve(needed);
    }

    /** The libraries with these hashes (hex) and those they use in turn, by hash. */
    async resolve(hashes: Iterable<string>): Promise<Map<string, Cell>> {
        const result = new Map<string, Cell>();
        let pending = [...new Set(hashes)];
        while (pending.length > 0) {
            const missing = pending.filter(hash => !this.roots.has(hash));
            if (missing.length > 0) {
                for (const [hash, boc] of await this.fetch(missing)) this.remember(hash, readBoc(boc)[0]);
            }
            const next = new Set<string>();
            for (const hash of pending) {
                const root = this.roots.get(hash);
                if (!root || result.has(hash)) continue;
                result.set(hash, root);
                for (const inner of libraryRefsIn(root)) if (!result.has(inner)) next.add(inner);
            }
            pending = [...next];
        }
        return result;
    }

    private refsOf(cell: Cell): string[] {
        const key = cell.hash().toString('hex');
        let refs = this.refsOfCode.get(key);
        if (!refs) {
            refs = [...libraryRefsIn(cell)];
            this.refsOfCode.set(key, refs);
            if (this.refsOfCode.size > this.maxCached * 10) this.refsOfCode.delete(this.refsOfCode.keys().next().value as string);
        }
        return refs;
    }

    /** Libraries learnt elsewhere (e.g. published in the block being indexed). */
    remember(hash: string, root: Cell): void {
        if (!root.hash().equals(Buffer.from(hash, 'hex'))) return;
        this.roots.delete(hash);
        this.roots.set(hash, root);
        if (this.roots.size > this.maxCached) this.roots.delete(this.roots.keys().next().value as string);
    }
}
