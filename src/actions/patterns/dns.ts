import { tryLoad } from '../../ton/bodies/index.ts';
import type { DomainRenewDraft } from '../action.ts';
import { hasInterface, hasOp, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * A .ton domain renewal: change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 with a zero key
 * and no value, sent to the domain's item (which only extends its expiry).
 */
const renewBody = txWhere((t) => t.body !== null && t.body.bits.length === 32 + 64 + 256 && t.body.refs.length === 0
    && tryLoad((s) => { s.skip(32 + 64); return s.loadUintBig(256) === 0n; }, t.body) === true);

export const DomainRenew: Pattern<DomainRenewDraft> = {
    name: 'DomainRenew',
    create: () => ({ type: 'DomainRenew', success: false, domain: '', contractAddress: UNKNOWN_ADDRESS, renewer: UNKNOWN_ADDRESS }),
    root: {
        checks: [isTx, hasOp(OP.changeDnsRecord), hasInterface('nft_item'), renewBody],
        build: (d, b, ctx) => {
            const t = tx(b);
            d.contractAddress = t.account;
            d.renewer = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.success = t.success;
            // The item's name as its get-methods give it; '' (shown as "unknown") when it could not be read.
            d.domain = ctx.facts.nftItems.get(t.account)?.dns ?? '';
        },
        singleChild: { checks: [isTx, hasOp(0xffffffff)], optional: true },
    },
};
