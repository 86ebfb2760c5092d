/**
 * The lite-API functions this server can decode, and the typed method table that serves them.
 * Argument and result objects are ton-lite-client's schema types (camelCase fields, `kind` tags,
 * `long` as a decimal string, `int256`/`bytes` as Buffer), so whoever implements a method fills
 * exactly what the client will read.
 */
import {
    Codecs,
    type liteServer_accountState,
    type liteServer_allShardsInfo,
    type liteServer_blockData,
    type liteServer_blockHeader,
    type liteServer_blockState,
    type liteServer_blockTransactions,
    type liteServer_configInfo,
    type liteServer_currentTime,
    type liteServer_getAccountState,
    type liteServer_getAccountStatePrunned,
    type liteServer_getAllShardsInfo,
    type liteServer_getBlock,
    type liteServer_getBlockHeader,
    type liteServer_getBlockProof,
    type liteServer_getConfigAll,
    type liteServer_getConfigParams,
    type liteServer_getLibraries,
    type liteServer_getMasterchainInfo,
    type liteServer_getMasterchainInfoExt,
    type liteServer_getOneTransaction,
    type liteServer_getShardBlockProof,
    type liteServer_getShardInfo,
    type liteServer_getState,
    type liteServer_getTime,
    type liteServer_getTransactions,
    type liteServer_getValidatorStats,
    type liteServer_getVersion,
    type liteServer_libraryResult,
    type liteServer_lookupBlock,
    type liteServer_masterchainInfo,
    type liteServer_masterchainInfoExt,
    type liteServer_partialBlockProof,
    type liteServer_runMethodResult,
    type liteServer_runSmcMethod,
    type liteServer_sendMessage,
    type liteServer_sendMsgStatus,
    type liteServer_shardBlockProof,
    type liteServer_shardInfo,
    type liteServer_transactionInfo,
    type liteServer_transactionList,
    type liteServer_validatorStats,
    type liteServer_version,
} from 'ton-lite-client/dist/schema.js';
import type { TLCodec, TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import {
    decodeBlockTransactionsExt,
    decodeListBlockTransactions,
    encodeBlockTransactionsExt,
    type BlockTransactionsExt,
    type ListBlockTransactionsArgs,
} from './tl/block-transactions.ts';
import { decodeExact } from './tl/exact-decode.ts';
import { FastTlWriteBuffer } from './tl/fast-write-buffer.ts';
import { constructorId } from './tl/tl-reader.ts';

type LiteMethod<Args, Result> = (args: Args) => Promise<Result>;

/** One entry per served lite function, named as in lite_api.tl without the `liteServer.` prefix. */
export interface LiteMethods {
    getMasterchainInfo: LiteMethod<liteServer_getMasterchainInfo, liteServer_masterchainInfo>;
    getMasterchainInfoExt: LiteMethod<liteServer_getMasterchainInfoExt, liteServer_masterchainInfoExt>;
    getTime: LiteMethod<liteServer_getTime, liteServer_currentTime>;
    getVersion: LiteMethod<liteServer_getVersion, liteServer_version>;
    getBlock: LiteMethod<liteServer_getBlock, liteServer_blockData>;
    getState: LiteMethod<liteServer_getState, liteServer_blockState>;
    getBlockHeader: LiteMethod<liteServer_getBlockHeader, liteServer_blockHeader>;
    sendMessage: LiteMethod<liteServer_sendMessage, liteServer_sendMsgStatus>;
    getAccountState: LiteMethod<liteServer_getAccountState, liteServer_accountState>;
    getAccountStatePrunned: LiteMethod<liteServer_getAccountStatePrunned, liteServer_accountState>;
    runSmcMethod: LiteMethod<liteServer_runSmcMethod, liteServer_runMethodResult>;
    getShardInfo: LiteMethod<liteServer_getShardInfo, liteServer_shardInfo>;
    getAllShardsInfo: LiteMethod<liteServer_getAllShardsInfo, liteServer_allShardsInfo>;
    getOneTransaction: LiteMethod<liteServer_getOneTransaction, liteServer_transactionInfo>;
    getTransactions: LiteMethod<liteServer_getTransactions, liteServer_transactionList>;
    lookupBlock: LiteMethod<liteServer_lookupBlock, liteServer_blockHeader>;
    listBlockTransactions: LiteMethod<ListBlockTransactionsArgs, liteServer_blockTransactions>;
    listBlockTransactionsExt: LiteMethod<ListBlockTransactionsArgs, BlockTransactionsExt>;
    getBlockProof: LiteMethod<liteServer_getBlockProof, liteServer_partialBlockProof>;
    getConfigAll: LiteMethod<liteServer_getConfigAll, liteServer_configInfo>;
    getConfigParams: LiteMethod<liteServer_getConfigParams, liteServer_configInfo>;
    getValidatorStats: LiteMethod<liteServer_getValidatorStats, liteServer_validatorStats>;
    getLibraries: LiteMethod<liteServer_getLibraries, liteServer_libraryResult>;
    getShardBlockProof: LiteMethod<liteServer_getShardBlockProof, liteServer_shardBlockProof>;
}

export type LiteMethodName = keyof LiteMethods;
/** What a liteserver serves: methods left out answer `liteServer.error` 621 "not served". */
export type LiteMethodTable = Partial<LiteMethods>;
export type LiteArgs<N extends LiteMethodName> = Parameters<LiteMethods[N]>[0];
export type LiteResult<N extends LiteMethodName> = Awaited<ReturnType<LiteMethods[N]>>;

export interface LiteFunction<N extends LiteMethodName = LiteMethodName> {
    readonly name: N;
    /** TL constructor id of the boxed call. */
    readonly id: number;
    /** Decodes the call's arguments (the bytes after its constructor id); throws TlDecodeError. */
    decodeArgs(data: Buffer): LiteArgs<N>;
    /** The boxed answer; throws when the result object would not decode as its type. */
    encodeResult(result: LiteResult<N>): Buffer;
}

function fromSchema<N extends LiteMethodName>(
    name: N,
    idHex: string,
    argsCodec: TLCodec<LiteArgs<N>>,
    resultCodec: TLCodec<LiteResult<N>>,
): LiteFunction<N> {
    return custom(name, idHex, (data) => decodeExact(data, argsCodec.decode), resultCodec.encode, resultCodec.decode);
}

function custom<N extends LiteMethodName>(
    name: N,
    idHex: string,
    decodeArgs: (data: Buffer) => LiteArgs<N>,
    encode: (result: LiteResult<N>, writer: TLWriteBuffer) => void,
    decode: (reader: TLReadBuffer) => LiteResult<N>,
): LiteFunction<N> {
    return {
        name,
        id: constructorId(idHex),
        decodeArgs,
        encodeResult(result) {
            const writer = new FastTlWriteBuffer();
            encode(result, writer);
            const bytes = writer.build();
            // ton-lite-client's encoders silently skip a flagged field whose value is missing;
            // reading the answer back catches that here instead of in the client.
            decodeExact(bytes, decode);
            return bytes;
        },
    };
}

export const LITE_FUNCTIONS: { readonly [N in LiteMethodName]: LiteFunction<N> } = {
    getMasterchainInfo: fromSchema('getMasterchainInfo', '89b5e62e', Codecs.liteServer_getMasterchainInfo, Codecs.liteServer_MasterchainInfo),
    getMasterchainInfoExt: fromSchema('getMasterchainInfoExt', '70a671df', Codecs.liteServer_getMasterchainInfoExt, Codecs.liteServer_MasterchainInfoExt),
    getTime: fromSchema('getTime', '16ad5a34', Codecs.liteServer_getTime, Codecs.liteServer_CurrentTime),
    getVersion: fromSchema('getVersion', '232b940b', Codecs.liteServer_getVersion, Codecs.liteServer_Version),
    getBlock: fromSchema('getBlock', '6377cf0d', Codecs.liteServer_getBlock, Codecs.liteServer_BlockData),
    getState: fromSchema('getState', 'ba6e2eb6', Codecs.liteServer_getState, Codecs.liteServer_BlockState),
    getBlockHeader: fromSchema('getBlockHeader', '21ec069e', Codecs.liteServer_getBlockHeader, Codecs.liteServer_BlockHeader),
    sendMessage: fromSchema('sendMessage', '690ad482', Codecs.liteServer_sendMessage, Codecs.liteServer_SendMsgStatus),
    getAccountState: fromSchema('getAccountState', '6b890e25', Codecs.liteServer_getAccountState, Codecs.liteServer_AccountState),
    getAccountStatePrunned: fromSchema('getAccountStatePrunned', '5a698507', Codecs.liteServer_getAccountStatePrunned, Codecs.liteServer_AccountState),
    runSmcMethod: fromSchema('runSmcMethod', '5cc65dd2', Codecs.liteServer_runSmcMethod, Codecs.liteServer_RunMethodResult),
    getShardInfo: fromSchema('getShardInfo', '46a2f425', Codecs.liteServer_getShardInfo, Codecs.liteServer_ShardInfo),
    getAllShardsInfo: fromSchema('getAllShardsInfo', '74d3fd6b', Codecs.liteServer_getAllShardsInfo, Codecs.liteServer_AllShardsInfo),
    getOneTransaction: fromSchema('getOneTransaction', 'd40f24ea', Codecs.liteServer_getOneTransaction, Codecs.liteServer_TransactionInfo),
    getTransactions: fromSchema('getTransactions', '1c40e7a1', Codecs.liteServer_getTransactions, Codecs.liteServer_TransactionList),
    lookupBlock: fromSchema('lookupBlock', 'fac8f71e', Codecs.liteServer_lookupBlock, Codecs.liteServer_BlockHeader),
    listBlockTransactions: custom(
        'listBlockTransactions',
        'adfcc7da',
        decodeListBlockTransactions,
        Codecs.liteServer_BlockTransactions.encode,
        Codecs.liteServer_BlockTransactions.decode,
    ),
    listBlockTransactionsExt: custom(
        'listBlockTransactionsExt',
        '0079dd5c',
        decodeListBlockTransactions,
        encodeBlockTransactionsExt,
        decodeBlockTransactionsExt,
    ),
    getBlockProof: fromSchema('getBlockProof', '8aea9c44', Codecs.liteServer_getBlockProof, Codecs.liteServer_PartialBlockProof),
    getConfigAll: fromSchema('getConfigAll', '911b26b7', Codecs.liteServer_getConfigAll, Codecs.liteServer_ConfigInfo),
    getConfigParams: fromSchema('getConfigParams', '2a111c19', Codecs.liteServer_getConfigParams, Codecs.liteServer_ConfigInfo),
    getValidatorStats: fromSchema('getValidatorStats', '091a58bc', Codecs.liteServer_getValidatorStats, Codecs.liteServer_ValidatorStats),
    getLibraries: fromSchema('getLibraries', 'd122b662', Codecs.liteServer_getLibraries, Codecs.liteServer_LibraryResult),
    getShardBlockProof: fromSchema('getShardBlockProof', '4ca60350', Codecs.liteServer_getShardBlockProof, Codecs.liteServer_ShardBlockProof),
};

const FUNCTIONS_BY_ID = new Map<number, LiteFunction>(Object.values(LITE_FUNCTIONS).map((fn: LiteFunction) => [fn.id, fn]));

export function liteFunctionById(id: number): LiteFunction | undefined {
    return FUNCTIONS_BY_ID.get(id);
}
