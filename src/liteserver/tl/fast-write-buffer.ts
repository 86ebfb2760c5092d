/**
 * A drop-in TLWriteBuffer for ton-lite-client's codecs that copies `bytes` fields in one go.
 * ton-tl's own writer appends byte by byte (about 20 ms per MiB), which would stall the event
 * loop on block and state answers. Every method is overridden, so the base class's storage is unused.
 */
import { TLWriteBuffer } from 'ton-tl';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export class FastTlWriteBuffer extends TLWriteBuffer {
    private buffer = Buffer.allocUnsafe(256);
    private used = 0;

    override writeInt32(value: number): void {
        const at = this.reserve(4);
        this.buffer.writeInt32LE(value, at);
    }

    override writeUInt32(value: number): void {
        const at = this.reserve(4);
        this.buffer.writeUInt32LE(value, at);
    }

    /** `long` as ton-lite-client passes it: a decimal string in the signed 64-bit range. */
    override writeInt64(value: string): void {
        const n = BigInt(value);
        if (n < INT64_MIN || n > INT64_MAX) throw new RangeError(`long out of range: ${value}`);
        const at = this.reserve(8);
        this.buffer.writeBigInt64LE(n, at);
    }

    override writeUInt8(value: number): void {
        const at = this.reserve(1);
        this.buffer.writeUInt8(value, at);
    }

    override writeInt256(value: Buffer): void {
        if (value.length !== 32) throw new Error('Invalid int256 length');
        const at = this.reserve(32);
        value.copy(this.buffer, at);
    }

    override writeBuffer(data: Buffer): void {
        let headerLength: number;
        if (data.length <= 253) {
            headerLength = 1;
            const at = this.reserve(1);
            this.buffer.writeUInt8(data.length, at);
        } else {
            if (data.length >= 2 ** 24) throw new RangeError(`TL bytes too long: ${data.length}`);
            headerLength = 4;
            const at = this.reserve(4);
            this.buffer.writeUInt8(254, at);
            this.buffer.writeUIntLE(data.length, at + 1, 3);
        }
        const dataAt = this.reserve(data.length);
        data.copy(this.buffer, dataAt);
        const padding = (4 - ((headerLength + data.length) % 4)) % 4;
        const paddingAt = this.reserve(padding);
        this.buffer.fill(0, paddingAt, this.used);
    }

    override writeString(value: string): void {
        this.writeBuffer(Buffer.from(value));
    }

    override writeBool(value: boolean): void {
        this.writeUInt32(value ? 0x997275b5 : 0xbc799737);
    }

    override writeVector<T>(codec: (item: T, writer: TLWriteBuffer) => void, items: T[]): void {
        this.writeUInt32(items.length);
        for (const item of items) codec(item, this);
    }

    override build(): Buffer {
        return this.buffer.subarray(0, this.used);
    }

    /** Call before reading `this.buffer`: it may replace it. */
    private reserve(count: number): number {
        if (this.used + count > this.buffer.length) {
            const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + count));
            this.buffer.copy(grown, 0, 0, this.used);
            this.buffer = grown;
        }
        const at = this.used;
        this.used += count;
        return at;
    }
}
