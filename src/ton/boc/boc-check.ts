import { crc32c } from '@ton/core';

/**
 * What is wrong with bytes that were meant to be a bag of cells, said in the format's own terms
 * (header fields, cells by index, references), for errors users read. It follows the layout
 * (serialized_boc#b5ee9c72, see boc-reader.ts; the older generic_boc#68ff65f3 and
 * generic_boc_crc#acc3a728 have a fixed header, one root and an index) and reports the first
 * thing that breaks it; null when it finds nothing.
 */
export function describeBocProblem(src: Buffer): string | null {
    if (src.length === 0) return 'it is empty';
    if (src.length < 4) return `it is ${src.length} byte${src.length === 1 ? '' : 's'} long, shorter than the 4-byte magic b5ee9c72 a bag of cells starts with`;
    const magic = src.readUInt32BE(0);
    if (magic !== 0xb5ee9c72 && magic !== 0x68ff65f3 && magic !== 0xacc3a728) {
        return `it starts with ${src.subarray(0, 4).toString('hex')}, not with the bag-of-cells magic b5ee9c72`;
    }
    const generic = magic === 0xb5ee9c72;
    let pos = 4;
    const need = (bytes: number, what: string): string | null =>
        pos + bytes > src.length ? `it ends at byte ${src.length} inside its ${what} (which needs bytes ${pos}..${pos + bytes - 1})` : null;

    let missing = need(2, 'header');
    if (missing) return missing;
    const flags = generic ? src[pos] : 0;
    const size = generic ? flags & 0x07 : src[pos];
    const offBytes = src[pos + 1];
    const hasIndex = generic ? (flags & 0x80) !== 0 : true;
    const hasCrc = generic ? (flags & 0x40) !== 0 : magic === 0xacc3a728;
    pos += 2;
    if (size < 1 || size > 4) return `its header gives cell references ${size} byte${size === 1 ? '' : 's'}; a bag of cells uses 1 to 4`;
    if (offBytes < 1 || offBytes > 8) return `its header gives offsets ${offBytes} byte${offBytes === 1 ? '' : 's'}; a bag of cells uses 1 to 8`;

    missing = need(3 * size + offBytes, 'header');
    if (missing) return missing;
    const readN = (n: number) => {
        let value = 0;
        for (let i = 0; i < n; i++) value = value * 256 + src[pos++];
        return value;
    };
    const cellCount = readN(size);
    const rootCount = readN(size);
    const absent = readN(size);
    const totalSize = readN(offBytes);
    if (cellCount === 0) return 'its header counts no cells';
    if (rootCount === 0) return 'its header counts no root cells';
    if (rootCount > cellCount) return `its header counts ${rootCount} roots but only ${cellCount} cells`;
    if (absent > cellCount) return `its header counts ${absent} absent cells of ${cellCount}`;

    const roots: number[] = [];
    if (generic) {
        missing = need(rootCount * size, 'list of roots');
        if (missing) return missing;
        for (let i = 0; i < rootCount; i++) roots.push(readN(size));
    } else {
        if (rootCount !== 1) return `its header counts ${rootCount} roots; this older format (magic ${src.subarray(0, 4).toString('hex')}) has exactly one`;
        roots.push(0);
    }
    for (const [i, root] of roots.entries()) {
        if (root >= cellCount) return `root ${i} is cell ${root}, but the bag holds only ${cells(cellCount)}`;
    }
    if (hasIndex) {
        missing = need(cellCount * offBytes, 'index of cell offsets');
        if (missing) return missing;
        pos += cellCount * offBytes;
    }
    const dataStart = pos;
    const dataEnd = dataStart + totalSize;
    if (dataEnd > src.length) return `its header announces ${totalSize} bytes of cell data, but only ${src.length - dataStart} follow the header: the bag is cut short`;
    if (hasCrc && dataEnd + 4 > src.length) return 'its header announces a CRC32C after the cell data, but the bag ends without one';

    for (let i = 0; i < cellCount; i++) {
        if (pos + 2 > dataEnd) return `its header counts ${cellCount} cells, but its cell data ends after ${cells(i)}`;
        const d1 = src[pos];
        const d2 = src[pos + 1];
        const refCount = d1 & 7;
        const exotic = (d1 & 8) !== 0;
        const levelMask = d1 >> 5;
        if (refCount > 4) return `cell ${i} declares ${refCount} references; a cell has at most 4`;
        const storedHashes = (d1 & 16) !== 0 ? (popCount(levelMask) + 1) * 34 : 0;
        const dataLength = (d2 >> 1) + (d2 & 1);
        const refsAt = pos + 2 + storedHashes + dataLength;
        if (refsAt + refCount * size > dataEnd) return `cell ${i} (${dataLength} data bytes, ${refCount} references) runs past the end of the cell data (byte ${dataEnd})`;
        const data = src.subarray(pos + 2 + storedHashes, refsAt);
        if ((d2 & 1) !== 0 && (dataLength === 0 || data[dataLength - 1] === 0)) return `cell ${i}'s last data byte has no completion bit (a partly filled byte ends with a 1 and zeros)`;
        const bits = (d2 & 1) !== 0 ? dataLength * 8 - 1 - trailingZeros(data[dataLength - 1]) : dataLength * 8;
        if (exotic) {
            const problem = exoticProblem(i, data, bits, refCount);
            if (problem) return problem;
        }
        pos = refsAt;
        for (let r = 0; r < refCount; r++) {
            const ref = readN(size);
            if (ref >= cellCount) return `cell ${i} refers to cell ${ref}, but the bag holds only ${cells(cellCount)}`;
            if (ref === i) return `cell ${i} refers to itself (a cycle: cells may only refer to cells after them)`;
            if (ref < i) return `cell ${i} refers to cell ${ref}, which comes before it: a cell may only refer to cells after it (otherwise references can loop)`;
        }
    }
    if (hasCrc) {
        // Checked last: a damaged cell is a better answer than a mismatching checksum.
        if (dataEnd + 4 !== src.length) return `it has ${src.length - dataEnd - 4} bytes after its CRC32C, which must end the bag`;
        if (!crc32c(src.subarray(0, dataEnd)).equals(src.subarray(dataEnd))) return 'its CRC32C does not match its content: the bag was damaged';
    }
    return null;
}

function exoticProblem(i: number, data: Buffer, bits: number, refs: number): string | null {
    if (bits < 8) return `cell ${i} is marked exotic but has no type byte`;
    const type = data[0];
    switch (type) {
        case 1:
            return refs === 0 && (bits === 280 || (bits >= 16 && bits === 16 + popCount(data[1]) * (256 + 16))) ? null : `cell ${i} is a malformed pruned branch (exotic type 1)`;
        case 2:
            return refs === 0 && bits === 8 + 256 ? null : `cell ${i} is a malformed library cell (exotic type 2: 8 + 256 bits, no references)`;
        case 3:
            return refs === 1 && bits === 8 + 256 + 16 ? null : `cell ${i} is a malformed Merkle proof (exotic type 3: 280 bits, one reference)`;
        case 4:
            return refs === 2 && bits === 8 + 2 * (256 + 16) ? null : `cell ${i} is a malformed Merkle update (exotic type 4: 552 bits, two references)`;
        default:
            return `cell ${i} is exotic of unknown type ${type} (known: 1 pruned branch, 2 library, 3 Merkle proof, 4 Merkle update)`;
    }
}

/** "1 cell (0)", "3 cells (0..2)". */
function cells(count: number): string {
    return count === 1 ? '1 cell (cell 0)' : `${count} cells (0..${count - 1})`;
}

function popCount(mask: number): number {
    let count = 0;
    for (let m = mask; m !== 0; m >>= 1) count += m & 1;
    return count;
}

function trailingZeros(byte: number): number {
    let zeros = 0;
    while (zeros < 8 && (byte & (1 << zeros)) === 0) zeros++;
    return zeros;
}
