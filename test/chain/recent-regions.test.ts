import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentRegions } from '../../src/chain/devnet/recent-regions.ts';

/** An account id whose top bits are `prefix` (of `bits` bits), the rest `fill`. */
const id = (prefix: number, bits: number, fill = 0x5an) => (BigInt(prefix) << BigInt(256 - bits)) | (fill << 100n);

describe('recent regions', () => {
    test('keep regions newest last, and tell which shorter prefixes hold one', () => {
        const recent = new RecentRegions(12);
        recent.touch(id(0b1010_0000_0001, 12));
        recent.touch(id(0b1010_0000_0010, 12));
        recent.touch(id(0b0001_1111_0000, 12));
        recent.touch(id(0b1010_0000_0001, 12, 0x77n)); // the first region again: now the newest
        assert.equal(recent.size, 3);
        assert.deepEqual([...recent.ids()].map(i => i >> 244n), [0b1010_0000_0010n, 0b0001_1111_0000n, 0b1010_0000_0001n]);

        assert.equal(recent.holdsUnder(id(0b1010_0000_0001, 12), 12), true);
        assert.equal(recent.holdsUnder(id(0b1010_0000_0011, 12), 12), false);
        assert.equal(recent.holdsUnder(id(0b1010_0000_0011, 12), 13), false, 'a longer prefix: its region is not recent');
        assert.equal(recent.holdsUnder(id(0b1010_0000_0000, 12), 11), true, '1010_0000_000x holds …0001');
        assert.equal(recent.holdsUnder(id(0b1010_0000_0100, 12), 10), false, 'nothing under 1010_0000_01');
        assert.equal(recent.holdsUnder(id(0b1010_0000_0100, 12), 9), true);
        assert.equal(recent.holdsUnder(id(0b0001_1110_0000, 12), 8), false);
        assert.equal(recent.holdsUnder(id(0b0001_1111_0000, 12), 8), true);
        assert.equal(recent.holdsUnder(id(0b1111_0000_0000, 12), 3), true, 'more than 8 levels up: assumed held');

        assert.equal(recent.takeOldest()! >> 244n, 0b1010_0000_0010n);
        assert.equal(recent.holdsUnder(id(0b1010_0000_0000, 12), 10), true, 'still …0001 under 1010_0000_00');
        assert.equal(recent.takeOldest()! >> 244n, 0b0001_1111_0000n);
        assert.equal(recent.holdsUnder(id(0b0001_1111_0000, 12), 8), false, 'its counts go with it');
        assert.equal(recent.takeOldest()! >> 244n, 0b1010_0000_0001n);
        assert.equal(recent.holdsUnder(id(0b1010_0000_0000, 12), 4), false);
        assert.equal(recent.takeOldest(), undefined);
        assert.equal(recent.size, 0);
    });

    test('resized, keep the same regions in the same order, each named by the account it had', () => {
        const recent = new RecentRegions(12);
        recent.touch(id(0b1010_0000_0001, 12));
        recent.touch(id(0b0001_1111_0000, 12));
        recent.touch(id(0b1010_0000_0010, 12));
        const smaller = recent.resized(13);
        assert.equal(smaller.bits, 13);
        assert.deepEqual([...smaller.ids()], [...recent.ids()]);
        // 1010_0000_0001_0 holds the first account; its other half, 1010_0000_0001_1, holds no recent region.
        assert.equal(smaller.holdsUnder(id(0b1010_0000_0001_0, 13), 13), true);
        assert.equal(smaller.holdsUnder(id(0b1010_0000_0001_1, 13), 13), false);
        assert.equal(smaller.holdsUnder(id(0b1010_0000_0001, 12), 12), true);
        assert.equal(smaller.takeOldest(), id(0b1010_0000_0001, 12));
        assert.equal(smaller.holdsUnder(id(0b1010_0000_0001, 12), 12), false, 'its counts go with it');
        assert.equal(recent.size, 3, 'the regions it was made from are unchanged');

        const larger = recent.resized(11);
        assert.deepEqual([...larger.ids()], [...recent.ids()]);
        assert.equal(larger.holdsUnder(id(0b1010_0000_000, 11), 11), true, '…0001 and …0010 are two regions at 11 bits');
        assert.equal(larger.size, 3);
    });
});
