import { TONCO_PAY_TO_SWAP_OK, loadToncoRouterPayTo, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * TONCO (concentrated-liquidity v3 pools): jettons (or pTON) to the router with a POOLV3_SWAP
 * payload, the router's POOLV3_SWAP#a7fb58f8 to the pool, the pool's ROUTERV3_PAY_TO#a1daa96d
 * back to the router, and the router's transfer of the output to the user.
 */

export const ToncoSwap: Pattern<JettonSwapDraft> = {
    name: 'ToncoSwap',
    create: newSwap('tonco'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.toncoPoolSwap)],
        build: startFromTransfer,
        singleChild: {
            checks: [isTx, hasOp(OP.toncoPoolSwap), hasInterface('tonco_pool')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.toncoRouterPayTo)],
                build: (d, b) => {
                    const t = tx(b);
                    d.router = t.account;
                    const payTo = t.body ? tryLoad(loadToncoRouterPayTo, t.body) : null;
                    d.success &&= t.success && payTo?.exitCode === TONCO_PAY_TO_SWAP_OK;
                },
                singleChild: { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
            },
        },
    },
};
