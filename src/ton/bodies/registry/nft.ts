import {
    OP_GET_ROYALTY_PARAMS, OP_GET_STATIC_DATA, OP_NFT_OWNERSHIP_ASSIGNED, OP_NFT_TRANSFER, OP_REPORT_ROYALTY_PARAMS, OP_REPORT_STATIC_DATA,
    loadGetRoyaltyParams, loadGetStaticData, loadNftOwnershipAssigned, loadNftTransfer, loadReportRoyaltyParams, loadReportStaticData,
} from '../nft.ts';
import { addressJson, bigJson } from '../json.ts';
import { eitherJson, internalBody, maybePayloadJson } from './entry.ts';

/** TEP-62 NFTs and TEP-66 royalties. */
export const NFT_BODIES = [
    internalBody(OP_NFT_TRANSFER, 'nft_transfer', loadNftTransfer, (v, ctx) => ({
        query_id: bigJson(v.queryId),
        new_owner: addressJson(v.newOwner),
        response_destination: addressJson(v.responseDestination),
        custom_payload: maybePayloadJson(v.customPayload, ctx),
        forward_amount: bigJson(v.forwardAmount),
        forward_payload: eitherJson(v.forwardPayload, ctx),
    })),
    internalBody(OP_NFT_OWNERSHIP_ASSIGNED, 'nft_ownership_assigned', loadNftOwnershipAssigned, (v, ctx) => ({
        query_id: bigJson(v.queryId), prev_owner: addressJson(v.prevOwner), forward_payload: eitherJson(v.forwardPayload, ctx),
    })),
    internalBody(OP_GET_STATIC_DATA, 'get_static_data', loadGetStaticData, (v) => ({ query_id: bigJson(v.queryId) })),
    internalBody(OP_REPORT_STATIC_DATA, 'report_static_data', loadReportStaticData, (v) => ({
        query_id: bigJson(v.queryId), index: bigJson(v.index), collection: addressJson(v.collection),
    })),
    internalBody(OP_GET_ROYALTY_PARAMS, 'get_royalty_params', loadGetRoyaltyParams, (v) => ({ query_id: bigJson(v.queryId) })),
    internalBody(OP_REPORT_ROYALTY_PARAMS, 'report_royalty_params', loadReportRoyaltyParams, (v) => ({
        query_id: bigJson(v.queryId), numerator: v.numerator, denominator: v.denominator, destination: addressJson(v.destination),
    })),
] as const;
