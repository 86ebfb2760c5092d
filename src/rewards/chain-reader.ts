/**
 * What round rewards read of the chain, through the lite API: one implementation for the devnet (its
 * in-process lite method table) and a follower (its liteserver pool). Parsed values are cached per
 * block (blocks and their states never change).
 */
import { loadAccount, parseTuple, serializeTuple, type Cell } from '@ton/core';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import type { TLFunction } from 'ton-tl';
import type { LitePool } from '../chain/lite/lite-pool.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { configParam, readMerkleProof } from '../ton/cells/merkle-proof.ts';
import type { LiteArgs, LiteMethodName, LiteMethodTable, LiteResult } from '../liteserver/lite-functions.ts';
import { ELECTOR_ACCOUNT_ID, PAST_ELECTIONS_METHOD, readElectorCredits, readPastElectionsResult, type ElectionRecord } from './elector-data.ts';
import type { PoolAccount } from './pools.ts';
import { parseRoundValidatorSet, type RoundValidatorSet } from './validator-set.ts';
import { Lru } from '../lru.ts';

/** Calls one lite-API function (ton-lite-client schema objects in and out). */
export type LiteTransport = <N extends LiteMethodName>(name: N, args: LiteArgs<N>) => Promise<LiteResult<N>>;

/** The devnet's lite method table, called in process. */
export function methodTableTransport(methods: LiteMethodTable | (() => LiteMethodTable)): LiteTransport {
    return async (name, args) => {
        const table = typeof methods === 'function' ? methods() : methods;
        const method = table[name] as ((a: typeof args) => Promise<LiteResult<typeof name>>) | undefined;
        if (!method) throw new Error(`the devnet's lite API does not serve ${name}`);
        return method(args);
    };
}

const POOL_FUNCTIONS: { [N in LiteMethodName]?: TLFunction<LiteArgs<N>, LiteResult<N>> } = {
    getMasterchainInfoExt: Functions.liteServer_getMasterchainInfoExt,
    lookupBlock: Functions.liteServer_lookupBlock,
    getConfigParams: Functions.liteServer_getConfigParams,
    runSmcMethod: Functions.liteServer_runSmcMethod,
    getAccountState: Functions.liteServer_getAccountState,
};

/** A follower's liteservers (failing over between them). */
export function litePoolTransport(pool: Pick<LitePool, 'query'>, timeoutMs = 15_000): LiteTransport {
    return async (name, args) => {
        const fn = POOL_FUNCTIONS[name];
        if (!fn) throw new Error(`round rewards do not call ${name}`);
        return (await pool.query(fn as TLFunction<typeof args, LiteResult<typeof name>>, args, { timeoutMs })).result;
    };
}

export interface ChainHead {
    seqno: number;
    utime: number;
}

export interface BlockSets {
    /** Config param 32 (the previous set), null when absent. */
    previous: RoundValidatorSet | null;
    /** Config param 34 (the current set), null when absent. */
    current: RoundValidatorSet | null;
}

/** A failed read, with the block it was for. `answered`: a liteserver answered with an error (it cannot give that), not a transport failure. */
export class ChainReadError extends Error {
    override readonly name = 'ChainReadError';

    constructor(message: string, readonly answered: boolean, options?: { cause?: unknown }) {
        super(message, options);
    }
}

const MASTER_SHARD = '-9223372036854775808';
const CACHE_LIMIT = 4096;

function answeredByServer(error: unknown): boolean {
    for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
        if (typeof (e as { code?: unknown }).code === 'number') return true;
    }
    return false;
}

/**
 * An account's cell (Account, with its tag) in the state after a block, null when it does not exist:
 * a chain source in this process answers without building the proofs getAccountState carries.
 */
export type AccountCellReader = (id: tonNode_blockIdExt, workchain: number, accountId: Buffer) => Cell | null;

export class RoundChainReader {
    private readonly blocks = new Lru<number, Promise<tonNode_blockIdExt>>(CACHE_LIMIT);
    private readonly sets = new Lru<number, Promise<BlockSets>>(CACHE_LIMIT);
    /** Lite calls made (for tests and benchmarks). */
    calls = 0;

    constructor(private readonly transport: LiteTransport, private readonly options: { accountCell?: AccountCellReader } = {}) {}

    private async call<N extends LiteMethodName>(name: N, args: LiteArgs<N>, what: string): Promise<LiteResult<N>> {
        this.calls++;
        try {
            return await this.transport(name, args);
        } catch (error) {
            throw new ChainReadError(`${what}: ${(error as Error).message}`, answeredByServer(error), { cause: error });
        }
    }

    async head(): Promise<ChainHead> {
        const info = await this.call('getMasterchainInfoExt', { kind: 'liteServer.getMasterchainInfoExt', mode: 0 }, 'the newest masterchain block');
        return { seqno: info.last.seqno, utime: info.lastUtime };
    }

    /** The masterchain block `seqno`. */
    block(seqno: number): Promise<tonNode_blockIdExt> {
        let found = this.blocks.get(seqno);
        if (!found) {
            found = this.call('lookupBlock', { kind: 'liteServer.lookupBlock', mode: 1, id: { kind: 'tonNode.blockId', workchain: -1, shard: MASTER_SHARD, seqno }, lt: null, utime: null }, `masterchain block ${seqno}`)
                .then(header => header.id);
            found.catch(() => this.blocks.set(seqno, undefined as never));
            this.blocks.set(seqno, found);
        }
        return found;
    }

    /** The first masterchain block with gen_utime ≥ utime (the liteserver's lookup by time). */
    async blockAtUtime(utime: number): Promise<tonNode_blockIdExt> {
        const header = await this.call('lookupBlock', { kind: 'liteServer.lookupBlock', mode: 4, id: { kind: 'tonNode.blockId', workchain: -1, shard: MASTER_SHARD, seqno: 0 }, lt: null, utime }, `the masterchain block at unix time ${utime}`);
        this.blocks.set(header.id.seqno, Promise.resolve(header.id));
        return header.id;
    }

    /** Config params 32 and 34 in the state after masterchain block `seqno`. */
    validatorSets(seqno: number): Promise<BlockSets> {
        let found = this.sets.get(seqno);
        if (!found) {
            found = (async () => {
                const id = await this.block(seqno);
                const info = await this.call('getConfigParams', { kind: 'liteServer.getConfigParams', mode: 0, id, paramList: [32, 34] }, `config params 32 and 34 at masterchain block ${seqno}`);
                const state = readMerkleProof(readBoc(info.configProof)[0]).root;
                const read = (param: number) => {
                    const cell = configParam(state, param);
                    return cell ? parseRoundValidatorSet(cell) : null;
                };
                return { previous: read(32), current: read(34) };
            })();
            found.catch(() => this.sets.set(seqno, undefined as never));
            this.sets.set(seqno, found);
        }
        return found;
    }

    /** `past_elections` of the elector after masterchain block `seqno`. */
    async pastElections(seqno: number): Promise<ElectionRecord[]> {
        const id = await this.block(seqno);
        const what = `the elector's past_elections at masterchain block ${seqno}`;
        const result = await this.call('runSmcMethod', {
            kind: 'liteServer.runSmcMethod', mode: 4, id,
            account: { kind: 'liteServer.accountId', workchain: -1, id: ELECTOR_ACCOUNT_ID },
            methodId: String(PAST_ELECTIONS_METHOD), params: writeBoc(serializeTuple([])),
        }, what);
        if (result.exitCode !== 0 && result.exitCode !== 1) throw new ChainReadError(`${what}: the get-method exited with code ${result.exitCode}`, true);
        if (!result.result) throw new ChainReadError(`${what}: no result`, true);
        const stack = parseTuple(readBoc(result.result)[0]);
        if (stack.length !== 1) throw new ChainReadError(`${what}: ${stack.length} stack values instead of 1`, true);
        return readPastElectionsResult(stack[0]);
    }

    /** A masterchain account's code and data after block `seqno` (null when it does not exist). */
    async account(seqno: number, accountId: Buffer): Promise<PoolAccount | null> {
        const id = await this.block(seqno);
        const what = `account -1:${accountId.toString('hex')} at masterchain block ${seqno}`;
        let cell: Cell | null;
        if (this.options.accountCell) {
            this.calls++;
            try {
                cell = this.options.accountCell(id, -1, accountId);
            } catch (error) {
                throw new ChainReadError(`${what}: ${(error as Error).message}`, answeredByServer(error), { cause: error });
            }
        } else {
            const state = await this.call('getAccountState', { kind: 'liteServer.getAccountState', id, account: { kind: 'liteServer.accountId', workchain: -1, id: accountId } }, what);
            cell = state.state.length === 0 ? null : readBoc(state.state)[0];
        }
        if (!cell) return null;
        // Account = account_none$0 | account$1 addr:MsgAddressInt … (@ton/core's loadAccount reads after the tag)
        const slice = cell.beginParse();
        if (!slice.loadBit()) return null;
        const account = loadAccount(slice);
        if (account.storage.state.type !== 'active') return { code: null, data: null };
        return { code: account.storage.state.state.code ?? null, data: account.storage.state.state.data ?? null };
    }

    /** The elector's credits (what `compute_returned_stake` returns per account) after block `seqno`. */
    async electorCredits(seqno: number): Promise<Map<bigint, bigint>> {
        const elector = await this.account(seqno, ELECTOR_ACCOUNT_ID);
        if (!elector?.data) throw new ChainReadError(`the elector has no data at masterchain block ${seqno}`, true);
        return readElectorCredits(elector.data);
    }
}

