import fc from 'fast-check';
import { cloneBag, headerLayout, rawCell, readRawBag, writeRawBag, type RawBag } from './raw-boc.ts';

/**
 * Mutations of real bags of cells for the BOC-taking endpoints: bit flips, truncations, header
 * fields that lie (root counts, root indexes, cell counts, sizes), bad magic and CRC, references
 * that point backwards or nowhere, exotic roots, chains thousands of cells deep, cells whose four
 * references fan out to the same child level after level, and huge or cut VarUIntegers.
 */

/** A real bag of cells (a signed wallet transfer, a transaction, a block, …). */
export interface RealBoc {
    label: string;
    bytes: Buffer;
}

/** Bytes of the cell a carrier message holds where a body can be grafted on (see `carrierBody`). */
export const PLACEHOLDER = Buffer.from('fuzz-placeholder-cell:'.padEnd(100, '#'));

export interface MutatedBoc {
    /** The BOC as the request carries it. */
    text: string;
    /** What was done, for the report (`bit-flip(3) of v4r2 transfer as base64`). */
    mutation: string;
}

type Mutation = { name: string; apply: (bytes: Buffer) => Buffer };

const chain = (length: number, bytesPerCell = 1): RawBag => ({
    roots: [0],
    cells: Array.from({ length }, (_, i) => rawCell(Buffer.alloc(bytesPerCell, i & 0xff), i + 1 < length ? [i + 1] : [])),
});

/** `levels` cells, each with four references to the next: 4^levels paths through `levels` cells. */
const fanout = (levels: number): RawBag => ({
    roots: [0],
    cells: Array.from({ length: levels }, (_, i) => rawCell(Buffer.from([i & 0xff]), i + 1 < levels ? [i + 1, i + 1, i + 1, i + 1] : [])),
});

/** A tree of distinct cells, four children each, `levels` deep (4^levels leaves). */
function wideTree(levels: number): RawBag {
    const cells: RawBag['cells'] = [];
    const pending: Array<{ level: number }> = [{ level: 0 }];
    // Breadth-first numbering keeps every reference pointing forward.
    for (let i = 0; i < pending.length; i++) {
        const { level } = pending[i];
        const refs: number[] = [];
        if (level + 1 < levels) {
            for (let k = 0; k < 4; k++) {
                refs.push(pending.length);
                pending.push({ level: level + 1 });
            }
        }
        const data = Buffer.alloc(4);
        data.writeUInt32BE(i);
        cells.push(rawCell(data, refs));
    }
    return { roots: [0], cells };
}

/** Appends `graft`'s cells to `bag` and hangs its root under the bag's placeholder cell (or under the root). */
function graft(bytes: Buffer, graftBag: RawBag): Buffer {
    const bag = cloneBag(readRawBag(bytes));
    const offset = bag.cells.length;
    for (const cell of graftBag.cells) bag.cells.push({ ...cell, refs: cell.refs.map(r => r + offset) });
    const holder = bag.cells.findIndex(c => c.data.equals(PLACEHOLDER));
    const at = holder >= 0 ? holder : bag.roots[0];
    if (bag.cells[at].refs.length >= 4) bag.cells[at].refs[3] = offset;
    else bag.cells[at].refs.push(offset);
    return writeRawBag(bag);
}

/** Replaces the placeholder's data with `data` (e.g. a jetton transfer whose VarUInteger is cut). */
function replacePlaceholder(bytes: Buffer, data: Buffer, bitLength = data.length * 8): Buffer {
    const bag = cloneBag(readRawBag(bytes));
    const holder = bag.cells.findIndex(c => c.data.equals(PLACEHOLDER));
    const at = holder >= 0 ? holder : bag.roots[0];
    bag.cells[at] = { ...rawCell(data, [], bitLength), refs: bag.cells[at].refs };
    return writeRawBag(bag);
}

function rewriteHeader(bytes: Buffer, field: 'cellCount' | 'rootCount' | 'absent' | 'totalSize', value: number): Buffer {
    const out = Buffer.from(bytes);
    const layout = headerLayout(out);
    const at = { cellCount: layout.cellCountAt, rootCount: layout.rootCountAt, absent: layout.absentAt, totalSize: layout.totalSizeAt }[field];
    const width = field === 'totalSize' ? layout.offBytes : layout.size;
    const w = Math.min(width, 6);
    out.writeUIntBE(value % 2 ** (8 * w), at + width - w, w);
    return out;
}

function withBag(bytes: Buffer, edit: (bag: RawBag) => void, options: Parameters<typeof writeRawBag>[1] = {}): Buffer {
    const bag = cloneBag(readRawBag(bytes));
    edit(bag);
    return writeRawBag(bag, options);
}

/** A jetton transfer (op 0x0f8a7ea5) whose amount's 4-bit length says 15 bytes where fewer follow. */
const CUT_VARUINT = Buffer.concat([Buffer.from('0f8a7ea5', 'hex'), Buffer.alloc(8, 0x11), Buffer.from([0xf0, 0xff, 0xff])]);
/** The same transfer with an amount of 2^120 − 1 and a forward amount of 2^120 − 1 (both full VarUInteger 16). */
const HUGE_VARUINT = Buffer.concat([Buffer.from('0f8a7ea5', 'hex'), Buffer.alloc(8, 0x22), Buffer.from([0xff]), Buffer.alloc(14, 0xff), Buffer.from([0xf0])]);

const DEPTHS = [2, 1023, 1024, 1025, 2048, 5000, 20000];
const FANOUT_LEVELS = [8, 64, 256, 1024, 2000];

function mutationArbitrary(): fc.Arbitrary<Mutation> {
    const nat = fc.nat({ max: 2 ** 31 - 1 });
    return fc.oneof(
        fc.constant<Mutation>({ name: 'unchanged', apply: b => b }),
        fc.array(nat, { minLength: 1, maxLength: 8 }).map((positions): Mutation => ({
            name: `bit-flip(${positions.length})`,
            apply: b => {
                const out = Buffer.from(b);
                for (const p of positions) out[(p >> 3) % out.length] ^= 1 << (p & 7);
                return out;
            },
        })),
        fc.tuple(nat, fc.integer({ min: 0, max: 255 })).map(([p, v]): Mutation => ({
            name: `byte-set(${v})`,
            apply: b => { const out = Buffer.from(b); out[p % out.length] = v; return out; },
        })),
        nat.map((p): Mutation => ({ name: 'truncate', apply: b => b.subarray(0, p % b.length) })),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((extra): Mutation => ({ name: 'trailing-bytes', apply: b => Buffer.concat([b, Buffer.from(extra)]) })),
        fc.constantFrom('00000000', '68ff65f3', 'acc3a728', 'b5ee9c73', 'ffffffff').map((magic): Mutation => ({
            name: `magic-${magic}`, apply: b => Buffer.concat([Buffer.from(magic, 'hex'), b.subarray(4)]),
        })),
        fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 4 })).map(([corrupt, at]): Mutation => ({
            name: corrupt ? 'bad-crc' : 'crc-and-index',
            apply: b => {
                const out = withBag(b, () => undefined, { hasCrc: true, hasIndex: true });
                if (corrupt) out[out.length - at] ^= 0x5a;
                return out;
            },
        })),
        fc.tuple(nat, fc.integer({ min: 1, max: 255 })).map(([which, value]): Mutation => ({
            name: 'bad-index-entry',
            apply: b => {
                const out = withBag(b, () => undefined, { hasIndex: true });
                const layout = headerLayout(out);
                const count = out.readUIntBE(layout.cellCountAt, layout.size);
                const roots = out.readUIntBE(layout.rootCountAt, layout.size);
                const entry = layout.rootsAt + roots * layout.size + (which % count) * layout.offBytes;
                out[entry + layout.offBytes - 1] ^= value;
                return out;
            },
        })),
        fc.constantFrom(0, 2, 3, 'count', 'count+1', 'max').map((roots): Mutation => ({
            name: `root-count-${roots}`,
            apply: b => {
                const { size, cellCountAt } = headerLayout(b);
                const count = b.readUIntBE(cellCountAt, size);
                const value = roots === 'count' ? count : roots === 'count+1' ? count + 1 : roots === 'max' ? 2 ** (8 * size) - 1 : Number(roots);
                return rewriteHeader(b, 'rootCount', value);
            },
        })),
        fc.constantFrom('second-cell', 'last-cell', 'count', 'max', 'two-roots', 'same-root-twice').map((root): Mutation => ({
            name: `root-index-${root}`,
            apply: b => {
                if (root === 'count' || root === 'max') {
                    const out = Buffer.from(b);
                    const { size, cellCountAt, rootsAt } = headerLayout(out);
                    const count = out.readUIntBE(cellCountAt, size);
                    out.writeUIntBE(root === 'count' ? count % 2 ** (8 * size) : 2 ** (8 * size) - 1, rootsAt, size);
                    return out;
                }
                return withBag(b, bag => {
                    const last = bag.cells.length - 1;
                    if (root === 'second-cell') bag.roots = [Math.min(1, last)];
                    else if (root === 'last-cell') bag.roots = [last];
                    else if (root === 'two-roots') bag.roots = [0, Math.min(1, last)];
                    else bag.roots = [0, 0];
                });
            },
        })),
        fc.constantFrom('count-1', 'count+1', '2^24-1', '2^32-1').map((lie): Mutation => ({
            name: `cell-count-${lie}`,
            apply: b => {
                const bag = readRawBag(b);
                if (lie === '2^32-1') return writeRawBag(bag, { lie: { sizeBytes: 4, cellCount: 2 ** 32 - 1 } });
                if (lie === '2^24-1') return writeRawBag(bag, { lie: { sizeBytes: 3, cellCount: 2 ** 24 - 1 } });
                return writeRawBag(bag, { lie: { cellCount: bag.cells.length + (lie === 'count-1' ? -1 : 1) } });
            },
        })),
        fc.constantFrom(0, 1, 'huge', 'absent-all').map((lie): Mutation => ({
            name: `header-${lie}`,
            apply: b => {
                const bag = readRawBag(b);
                if (lie === 'huge') return writeRawBag(bag, { lie: { offBytes: 8, totalSize: 2 ** 48 - 1 } });
                if (lie === 'absent-all') return writeRawBag(bag, { lie: { absent: bag.cells.length } });
                return writeRawBag(bag, { lie: { totalSize: Number(lie) } });
            },
        })),
        fc.tuple(nat, fc.constantFrom('self', 'backward', 'out-of-range')).map(([which, kind]): Mutation => ({
            name: `ref-${kind}`,
            apply: b => withBag(b, bag => {
                const withRefs = bag.cells.map((c, i) => [c, i] as const).filter(([c]) => c.refs.length > 0);
                if (withRefs.length === 0) {
                    bag.cells[0].refs.push(kind === 'out-of-range' ? bag.cells.length + 3 : 0);
                    return;
                }
                const [cell, index] = withRefs[which % withRefs.length];
                cell.refs[0] = kind === 'self' ? index : kind === 'backward' ? 0 : bag.cells.length + 3;
            }),
        })),
        fc.constantFrom('exotic-flag', 'pruned-branch', 'level-bits', 'd2-longer', 'five-refs').map((kind): Mutation => ({
            name: `cell-${kind}`,
            apply: b => withBag(b, bag => {
                const root = bag.cells[bag.roots[0]];
                if (kind === 'exotic-flag') root.d1Flags |= 8;
                else if (kind === 'level-bits') root.d1Flags |= 0x20;
                else if (kind === 'five-refs') root.refs = [...root.refs, ...Array(5 - root.refs.length).fill(bag.cells.length - 1)].slice(0, 5);
                else if (kind === 'd2-longer') root.d2 = Math.min(root.d2 + 8, 255);
                else {
                    // A valid pruned branch of level 1 as the root: type 1, mask 1, a hash and a depth.
                    bag.cells[bag.roots[0]] = { ...rawCell(Buffer.concat([Buffer.from([1, 1]), Buffer.alloc(32, 0xab), Buffer.from([0, 3])]), [], 288, 8 | 0x20) };
                }
            }),
        })),
        fc.constantFrom(...DEPTHS).chain(depth => fc.boolean().map((alone): Mutation => ({
            name: `deep-chain-${depth}${alone ? '' : '-grafted'}`,
            apply: b => (alone ? writeRawBag(chain(depth)) : graft(b, chain(depth))),
        }))),
        fc.constantFrom(...FANOUT_LEVELS).chain(levels => fc.boolean().map((alone): Mutation => ({
            name: `fanout-${levels}${alone ? '' : '-grafted'}`,
            apply: b => (alone ? writeRawBag(fanout(levels)) : graft(b, fanout(levels))),
        }))),
        fc.integer({ min: 2, max: 7 }).map((levels): Mutation => ({ name: `wide-tree-${levels}`, apply: b => graft(b, wideTree(levels)) })),
        fc.constantFrom('cut', 'huge').map((kind): Mutation => ({
            name: `varuint-${kind}`,
            apply: b => (kind === 'cut' ? replacePlaceholder(b, CUT_VARUINT) : replacePlaceholder(b, HUGE_VARUINT, HUGE_VARUINT.length * 8 - 4)),
        })),
    );
}

const ENCODINGS = ['base64', 'base64url', 'hex', 'HEX'] as const;

function encode(bytes: Buffer, encoding: (typeof ENCODINGS)[number]): string {
    if (encoding === 'HEX') return bytes.toString('hex').toUpperCase();
    return bytes.toString(encoding);
}

/** A real BOC, mutated (or not), in one of the encodings the document allows. */
export function mutatedBocArbitrary(seeds: readonly RealBoc[]): fc.Arbitrary<MutatedBoc> {
    return fc.tuple(fc.constantFrom(...seeds), mutationArbitrary(), fc.constantFrom(...ENCODINGS)).map(([seed, mutation, encoding]) => {
        let bytes: Buffer;
        try {
            bytes = mutation.apply(seed.bytes);
        } catch {
            bytes = seed.bytes; // a mutation that does not apply to this bag (e.g. too few cells)
        }
        return { text: encode(bytes, encoding), mutation: `${mutation.name} of ${seed.label} as ${encoding}` };
    });
}
