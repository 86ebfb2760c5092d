import type { DictionaryKey } from '@ton/core';

/**
 * Dictionary keys for @ton/core's Dictionary, the same kinds as `Dictionary.Keys` with the same
 * checks and values, computed arithmetically. @ton/core's own build a cell for every key they read
 * or write (hashed with @ton/crypto's JavaScript SHA-256): reading a block's account blocks spent
 * more time making key cells than reading the block.
 */
export const DictKeys = {
    /** Unsigned keys of `bits` bits as bigints. */
    BigUint(bits: number): DictionaryKey<bigint> {
        return {
            bits,
            serialize(src: bigint) {
                if (typeof src !== 'bigint') throw new Error('Key is not a bigint');
                if (src < 0n) throw new Error(`Key is negative: ${src}`);
                return checkedUnsigned(src, bits);
            },
            parse: (src: bigint) => src,
        };
    },

    /** Unsigned keys of `bits` bits as numbers. */
    Uint(bits: number): DictionaryKey<number> {
        return {
            bits,
            serialize(src: number) {
                if (checkedNumber(src) < 0) throw new Error(`Key is negative: ${src}`);
                return checkedUnsigned(BigInt(src), bits);
            },
            parse: (src: bigint) => Number(src),
        };
    },

    /** Signed keys of `bits` bits as numbers. */
    Int(bits: number): DictionaryKey<number> {
        return {
            bits,
            serialize: (src: number) => checkedSigned(BigInt(checkedNumber(src)), bits),
            parse: (src: bigint) => Number(BigInt.asIntN(bits, src)),
        };
    },

    /** Keys of `bytes` bytes as Buffers. */
    Buffer(bytes: number): DictionaryKey<Buffer> {
        return {
            bits: bytes * 8,
            serialize(src: Buffer) {
                if (!Buffer.isBuffer(src)) throw new Error('Key is not a buffer');
                if (src.length !== bytes) throw new Error(`Key is ${src.length} bytes, not ${bytes}`);
                return bytes === 0 ? 0n : BigInt(`0x${src.toString('hex')}`);
            },
            parse: (src: bigint) => Buffer.from(src.toString(16).padStart(bytes * 2, '0'), 'hex'),
        };
    },
};

function checkedNumber(src: number): number {
    if (typeof src !== 'number') throw new Error('Key is not a number');
    if (!Number.isSafeInteger(src)) throw new Error(`Key is not a safe integer: ${src}`);
    return src;
}

function checkedUnsigned(value: bigint, bits: number): bigint {
    if (value >> BigInt(bits) !== 0n) throw new Error(`value is out of range for ${bits} bits. Got ${value}`);
    return value;
}

function checkedSigned(value: bigint, bits: number): bigint {
    if (BigInt.asIntN(bits, value) !== value) throw new Error(`value is out of range for ${bits} bits. Got ${value}`);
    return BigInt.asUintN(bits, value);
}
