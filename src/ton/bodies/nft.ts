import { Address, Cell, Slice } from '@ton/core';
import { EitherPayload, expectOp, loadForwardPayload, loadMsgAddress, loadQueryId } from './common.ts';

// TEP-62 (NFT) and TEP-66 (royalty). excesses#d53276db is shared with jettons (see jetton.ts).
export const OP_NFT_TRANSFER = 0x5fcc3d14;
export const OP_NFT_OWNERSHIP_ASSIGNED = 0x05138d91;
export const OP_GET_STATIC_DATA = 0x2fcb26a2;
export const OP_REPORT_STATIC_DATA = 0x8b771735;
export const OP_GET_ROYALTY_PARAMS = 0x693d3950;
export const OP_REPORT_ROYALTY_PARAMS = 0xa8cb00ad;

/**
 * transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *   custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 */
export interface NftTransfer {
    queryId: bigint;
    newOwner: Address | null;
    responseDestination: Address | null;
    customPayload: Cell | null;
    forwardAmount: bigint;
    forwardPayload: EitherPayload;
}

/** ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell) */
export interface NftOwnershipAssigned {
    queryId: bigint;
    prevOwner: Address | null;
    forwardPayload: EitherPayload;
}

/** get_static_data#2fcb26a2 query_id:uint64 */
export interface GetStaticData {
    queryId: bigint;
}

/** report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress */
export interface ReportStaticData {
    queryId: bigint;
    index: bigint;
    collection: Address | null;
}

/** get_royalty_params#693d3950 query_id:uint64 */
export interface GetRoyaltyParams {
    queryId: bigint;
}

/** report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress */
export interface ReportRoyaltyParams {
    queryId: bigint;
    numerator: number;
    denominator: number;
    destination: Address | null;
}

export function loadNftTransfer(s: Slice): NftTransfer {
    expectOp(s, OP_NFT_TRANSFER);
    const queryId = loadQueryId(s);
    const newOwner = loadMsgAddress(s);
    const responseDestination = loadMsgAddress(s);
    const customPayload = s.loadMaybeRef();
    const forwardAmount = s.loadCoins();
    const forwardPayload = loadForwardPayload(s);
    return { queryId, newOwner, responseDestination, customPayload, forwardAmount, forwardPayload };
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
    expectOp(s, OP_NFT_OWNERSHIP_ASSIGNED);
    const queryId = loadQueryId(s);
    const prevOwner = loadMsgAddress(s);
    const forwardPayload = loadForwardPayload(s);
    return { queryId, prevOwner, forwardPayload };
}

export function loadGetStaticData(s: Slice): GetStaticData {
    expectOp(s, OP_GET_STATIC_DATA);
    return { queryId: loadQueryId(s) };
}

export function loadReportStaticData(s: Slice): ReportStaticData {
    expectOp(s, OP_REPORT_STATIC_DATA);
    const queryId = loadQueryId(s);
    const index = s.loadUintBig(256);
    const collection = loadMsgAddress(s);
    return { queryId, index, collection };
}

export function loadGetRoyaltyParams(s: Slice): GetRoyaltyParams {
    expectOp(s, OP_GET_ROYALTY_PARAMS);
    return { queryId: loadQueryId(s) };
}

export function loadReportRoyaltyParams(s: Slice): ReportRoyaltyParams {
    expectOp(s, OP_REPORT_ROYALTY_PARAMS);
    const queryId = loadQueryId(s);
    const numerator = s.loadUint(16);
    const denominator = s.loadUint(16);
    const destination = loadMsgAddress(s);
    return { queryId, numerator, denominator, destination };
}
