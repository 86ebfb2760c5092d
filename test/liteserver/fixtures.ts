/**
 * Fixed answers for transport tests: they only have to be well-formed lite-API objects.
 */
import type { liteServer_masterchainInfo, liteServer_version, tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { createLiteDispatcher, type LiteDispatcherOptions } from '../../src/liteserver/lite-dispatch.ts';
import type { LiteMethodTable } from '../../src/liteserver/lite-functions.ts';

export const FIXED_NOW = 1_700_000_000;

export const FIXED_BLOCK: tonNode_blockIdExt = {
    kind: 'tonNode.blockIdExt',
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: 42,
    rootHash: Buffer.alloc(32, 0xaa),
    fileHash: Buffer.alloc(32, 0xbb),
};

export const FIXED_MASTERCHAIN_INFO: liteServer_masterchainInfo = {
    kind: 'liteServer.masterchainInfo',
    last: FIXED_BLOCK,
    stateRootHash: Buffer.alloc(32, 0xcc),
    init: { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) },
};

export const FIXED_VERSION: liteServer_version = {
    kind: 'liteServer.version',
    mode: 0,
    version: 0x101,
    capabilities: '7',
    now: FIXED_NOW,
};

export const FIXED_METHODS: LiteMethodTable = {
    getTime: async () => ({ kind: 'liteServer.currentTime', now: FIXED_NOW }),
    getVersion: async () => FIXED_VERSION,
    getMasterchainInfo: async () => FIXED_MASTERCHAIN_INFO,
};

export function fixedDispatcher(overrides: Partial<LiteDispatcherOptions> = {}) {
    return createLiteDispatcher({
        methods: FIXED_METHODS,
        waitForMasterchainSeqno: async (seqno) => seqno <= FIXED_BLOCK.seqno,
        ...overrides,
    });
}
