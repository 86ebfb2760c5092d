import type { AuctionBidDraft, NftPurchaseDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, hasValue, isAction, isTx, txWhere } from '../checks.ts';
import { OP_NFT_OWNERSHIP_ASSIGNED, loadNftOwnershipAssigned, tryLoad } from '../../ton/bodies/index.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Pattern } from '../straw.ts';
import { commentOf } from '../transfer-note.ts';
import { tx } from './tx.ts';

/** Sales and auctions of NFTs (getgems-style sale contracts and auctions). */

function newPurchase(auctionType: NftPurchaseDraft['auctionType']): NftPurchaseDraft {
    return { type: 'NftPurchase', success: false, auctionType, amount: 0n, nft: UNKNOWN_ADDRESS, seller: UNKNOWN_ADDRESS, buyer: UNKNOWN_ADDRESS };
}

/** A buy: value with an empty body, op 0 or a text comment other than "cancel". */
const isBuyMessage = txWhere((t) => t.opCode === null || (t.opCode === 0 && commentOf(t.body).comment !== 'cancel'));

export const NftPurchase: Pattern<NftPurchaseDraft> = {
    name: 'NftPurchase',
    create: () => newPurchase('getgems'),
    root: {
        checks: [isTx, hasInterface('nft_sale'), hasValue, isBuyMessage, (b, ctx) => ctx.facts.nftSales?.has(tx(b).account) === true],
        build: (d, b, ctx) => {
            const t = tx(b);
            const sale = ctx.facts.nftSales!.get(t.account)!;
            d.buyer = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.seller = sale.owner;
            d.amount = sale.price;
            d.nft = sale.nft;
            // The purchase happened when the item changed hands.
            d.success = false;
        },
        singleChild: {
            checks: [isAction('NftItemTransfer')],
            build: (d, b) => {
                const transfer = actionOf(b, 'NftItemTransfer')!;
                d.success = transfer.success && transfer.recipient === d.buyer;
            },
            optional: true,
        },
    },
};

/** A bid on a getgems auction: value with an empty body. */
export const AuctionBidGetgems: Pattern<AuctionBidDraft> = {
    name: 'AuctionBidGetgems',
    create: () => ({ type: 'AuctionBid', success: false, auctionType: 'getgems', amount: 0n, bidder: UNKNOWN_ADDRESS, auction: UNKNOWN_ADDRESS }),
    root: {
        checks: [isTx, hasInterface('nft_auction_v1'), hasValue, txWhere((t) => t.opCode === null)],
        build: (d, b, ctx) => {
            const t = tx(b);
            d.amount = t.inputAmount;
            d.bidder = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.auction = t.account;
            d.success = t.success;
            const sale = ctx.facts.nftSales?.get(t.account);
            if (sale) d.nft = sale.nft;
        },
    },
};

/** A bid that won the auction outright: the item goes to the bidder in the same trace. */
export const AuctionBuyGetgems: Pattern<NftPurchaseDraft> = {
    name: 'AuctionBuyGetgems',
    create: () => newPurchase('getgems'),
    root: {
        checks: [isAction('AuctionBid')],
        build: (d, b, ctx) => {
            const bid = actionOf(b, 'AuctionBid')!;
            Object.assign(d, { auctionType: bid.auctionType, amount: bid.amount, buyer: bid.bidder, success: bid.success });
            const sale = ctx.facts.nftSales?.get(bid.auction);
            d.seller = sale?.owner ?? bid.auction;
        },
        singleChild: {
            checks: [isAction('NftItemTransfer')],
            build: (d, b) => {
                const transfer = actionOf(b, 'NftItemTransfer')!;
                d.nft = transfer.nft;
                d.success &&= transfer.success;
            },
        },
    },
};

/** An auction or sale contract whose sale settled: it hands the item to the winner (the highest bid the facts hold). */
export const SaleSettledGetgems: Pattern<NftPurchaseDraft> = {
    name: 'SaleSettledGetgems',
    create: () => newPurchase('getgems'),
    root: {
        checks: [isTx, anyOf([hasInterface('nft_auction_v1')], [hasInterface('nft_sale')]), (b, ctx) => ctx.facts.nftSales?.has(tx(b).account) === true],
        build: (d, b, ctx) => {
            const sale = ctx.facts.nftSales!.get(tx(b).account)!;
            Object.assign(d, { seller: sale.owner, amount: sale.price, nft: sale.nft, success: tx(b).success });
        },
        singleChild: {
            checks: [
                isAction('NftItemTransfer'),
                (b, ctx) => {
                    const transfer = actionOf(b, 'NftItemTransfer')!;
                    const sale = ctx.facts.nftSales?.get(transfer.sender ?? '');
                    return sale !== undefined && transfer.nft === sale.nft && transfer.recipient !== undefined && transfer.recipient !== sale.owner;
                },
            ],
            build: (d, b) => {
                const transfer = actionOf(b, 'NftItemTransfer')!;
                d.buyer = transfer.recipient!;
                d.success &&= transfer.success;
            },
        },
    },
};

/**
 * A Telegram item (username or number) bought from the item itself at its fixed price: grams with
 * an empty body, the item assigned to the buyer and the price paid out to the seller and Fragment.
 */
export const TelemintDirectBuy: Pattern<NftPurchaseDraft> = {
    name: 'TelemintDirectBuy',
    create: () => newPurchase('NUMBER.tg'),
    root: {
        checks: [isTx, hasInterface('nft_item'), hasValue, txWhere((t) => t.opCode === null && !t.bounced)],
        build: (d, b, ctx) => {
            const t = tx(b);
            d.nft = t.account;
            d.buyer = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.amount = t.inputAmount;
            d.success = t.success;
            if (ctx.facts.nftItems.get(t.account)?.dns?.endsWith('.t.me')) d.auctionType = 'DNS.tg';
        },
        singleChild: {
            checks: [isTx, hasOp(OP_NFT_OWNERSHIP_ASSIGNED)],
            build: (d, b) => {
                const t = tx(b);
                const assigned = t.body ? tryLoad(loadNftOwnershipAssigned, t.body) : null;
                d.seller = assigned?.prevOwner ? formatRawAddress(assigned.prevOwner) : d.seller;
                // The buyer's own transaction may fail (an uninitialized wallet): the item is assigned all the same.
            },
        },
    },
};
