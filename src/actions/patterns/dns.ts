import { loadChangeDnsRecord, tryLoad } from '../../ton/bodies/index.ts';
import type { DomainRenewDraft } from '../action.ts';
import { hasInterface, hasOp, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * A .ton domain renewal: change_dns_record#4eb1f0f9 with a zero key and no value, sent to the
 * domain's item (which only extends its expiry).
 */
const renewBody = txWhere((t) => {
    const change = t.body ? tryLoad(loadChangeDnsRecord, t.body) : null;
    return change !== null && change.key === 0n && change.value === null;
});

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
