import { OP_EXCESS, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_NOTIFY, loadJettonInternalTransfer, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonMintDraft } from '../action.ts';
import { hasOp, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS, ownerOfWallet } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/** Wrapped TON: grams sent to the master with mint#77a33521 mint as much WTON to the sender's jetton wallet. */
export const WtonMint: Pattern<JettonMintDraft> = {
    name: 'WtonMint',
    create: () => ({ type: 'JettonMint', success: false, recipient: UNKNOWN_ADDRESS, recipientsWallet: UNKNOWN_ADDRESS, master: UNKNOWN_ADDRESS, amount: 0n }),
    root: {
        checks: [isTx, hasOp(OP.wtonMint)],
        build: (d, b) => {
            const t = tx(b);
            d.master = t.account;
            d.success = t.success;
        },
        valueFlow: (d, flow) => {
            if (d.success && d.recipient !== UNKNOWN_ADDRESS) flow.addJettons(d.recipient, d.master, d.amount);
        },
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
            build: (d, b, ctx) => {
                const t = tx(b);
                d.recipientsWallet = t.account;
                d.recipient = ownerOfWallet(ctx.facts, t.account) ?? d.recipient;
                d.success &&= t.success;
                const body = t.body ? tryLoad(loadJettonInternalTransfer, t.body) : null;
                if (body) d.amount = body.amount;
            },
            children: [
                { checks: [isTx, hasOp(OP_JETTON_NOTIFY)], optional: true, build: (d, b) => { d.recipient = tx(b).account; } },
                { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
            ],
        },
    },
};
