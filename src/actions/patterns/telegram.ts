import type { AuctionBidDraft } from '../action.ts';
import { hasInterface, hasOp, hasValue, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/** Fragment (Telegram usernames and numbers) auctions. */

function newBid(): AuctionBidDraft {
    return { type: 'AuctionBid', success: false, auctionType: 'DNS.tg', amount: 0n, bidder: UNKNOWN_ADDRESS, auction: UNKNOWN_ADDRESS };
}

/** A bid on a running auction: grams with an empty body to the item (teleitem), which is the auction. */
export const FragmentSimpleBid: Pattern<AuctionBidDraft> = {
    name: 'FragmentSimpleBid',
    create: newBid,
    root: {
        checks: [isTx, hasInterface('teleitem'), hasValue, txWhere((t) => t.opCode === null)],
        build: (d, b) => {
            const t = tx(b);
            Object.assign(d, { amount: t.inputAmount, bidder: t.inputFrom ?? UNKNOWN_ADDRESS, auction: t.account, nft: t.account, success: t.success });
        },
    },
};

/** The first bid: telemint deploy#4637289a to the collection, which deploys the item (#299a3e15) holding the auction. */
export const TgAuctionV1InitialBid: Pattern<AuctionBidDraft> = {
    name: 'TgAuctionV1InitialBid',
    create: newBid,
    root: {
        checks: [isTx, hasOp(OP.telemintDeploy)],
        build: (d, b) => {
            const t = tx(b);
            Object.assign(d, { amount: t.inputAmount, bidder: t.inputFrom ?? UNKNOWN_ADDRESS, success: t.success });
        },
        singleChild: {
            checks: [isTx, hasOp(OP.teleitemDeploy)],
            build: (d, b) => {
                const t = tx(b);
                d.auction = t.account;
                d.nft = t.account;
                d.success &&= t.success;
            },
        },
    },
};
