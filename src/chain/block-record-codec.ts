import type { AccountStateRecord, BlockIdExt, BlockRecord } from './chain-source.ts';
import { decodeExtraBalance, encodeExtraBalance } from '../ton/extra-currencies.ts';

/** JSON form of a block record (bigints as decimal text, BOCs as base64), for logs and files. */
export function encodeBlockRecord(block: BlockRecord): string {
    return JSON.stringify({
        id: block.id,
        utime: block.utime,
        startLt: block.startLt.toString(),
        endLt: block.endLt.toString(),
        isKeyBlock: block.isKeyBlock,
        parents: block.parents,
        masterRef: block.masterRef,
        shardBlocks: block.shardBlocks,
        transactions: block.transactions.map(t => ({
            boc: t.boc.toString('base64'),
            endBalance: t.endBalance?.toString(),
        })),
        accountStates: block.accountStates?.map(s => ({
            ...s,
            balance: s.balance.toString(),
            extraBalance: encodeExtraBalance(s.extraBalance) ?? undefined,
            lastTransLt: s.lastTransLt.toString(),
            code: s.code?.toString('base64'),
            data: s.data?.toString('base64'),
            libraries: s.libraries?.toString('base64'),
        })),
        config: block.config?.toString('base64'),
    });
}

interface EncodedBlock {
    id: BlockIdExt;
    utime: number;
    startLt: string;
    endLt: string;
    isKeyBlock: boolean;
    parents: BlockIdExt[];
    masterRef?: BlockIdExt;
    shardBlocks: BlockIdExt[];
    transactions: Array<{ boc: string; endBalance?: string }>;
    accountStates?: Array<Omit<AccountStateRecord, 'balance' | 'extraBalance' | 'lastTransLt' | 'code' | 'data' | 'libraries'> & {
        balance: string; extraBalance?: string; lastTransLt: string; code?: string; data?: string; libraries?: string;
    }>;
    config?: string;
}

export function decodeBlockRecord(text: string): BlockRecord {
    const e = JSON.parse(text) as EncodedBlock;
    return {
        id: e.id,
        utime: e.utime,
        startLt: BigInt(e.startLt),
        endLt: BigInt(e.endLt),
        isKeyBlock: e.isKeyBlock,
        parents: e.parents,
        masterRef: e.masterRef,
        shardBlocks: e.shardBlocks,
        transactions: e.transactions.map(t => ({
            boc: Buffer.from(t.boc, 'base64'),
            endBalance: t.endBalance !== undefined ? BigInt(t.endBalance) : undefined,
        })),
        accountStates: e.accountStates?.map(s => ({
            ...s,
            balance: BigInt(s.balance),
            extraBalance: s.extraBalance !== undefined ? decodeExtraBalance(s.extraBalance) : undefined,
            lastTransLt: BigInt(s.lastTransLt),
            code: s.code !== undefined ? Buffer.from(s.code, 'base64') : undefined,
            data: s.data !== undefined ? Buffer.from(s.data, 'base64') : undefined,
            libraries: s.libraries !== undefined ? Buffer.from(s.libraries, 'base64') : undefined,
        })),
        config: e.config !== undefined ? Buffer.from(e.config, 'base64') : undefined,
    };
}
